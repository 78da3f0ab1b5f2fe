/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */

package org.apache.storm.iceberg.wal;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.storm.iceberg.spi.WalScope;

/**
 * The file layout every file-based WAL store shares: {@code <namespace>/<topology>/<component>/
 * <task index>/<commit id>.json}, each part URL-encoded so any name is a safe path segment.
 */
final class WalPaths {
  private static final String SUFFIX = ".json";

  private WalPaths() {}

  static String scopePath(WalScope scope) {
    return encode(scope.namespace())
        + "/" + encode(scope.topology())
        + "/" + encode(scope.component())
        + "/" + scope.taskIndex();
  }

  static String entryFileName(String commitId) {
    return encode(commitId) + SUFFIX;
  }

  /** The commit id a file name holds, or null when the file is not a WAL entry. */
  static String commitIdOf(String fileName) {
    if (!fileName.endsWith(SUFFIX)) {
      return null;
    }
    return URLDecoder.decode(fileName.substring(0, fileName.length() - SUFFIX.length()), StandardCharsets.UTF_8);
  }

  static String encode(String pathPart) {
    return URLEncoder.encode(pathPart, StandardCharsets.UTF_8);
  }
}
