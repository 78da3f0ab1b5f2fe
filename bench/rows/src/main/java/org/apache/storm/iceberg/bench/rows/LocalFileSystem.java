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

package org.apache.storm.iceberg.bench.rows;

import java.util.Map;

/**
 * The Hadoop configuration every contender's catalog and file writers get, so they all pay the
 * same for the local file system. Hadoop's default for {@code file:} is its checksummed
 * {@code LocalFileSystem}, which beside every file writes a {@code .crc} file, and without Hadoop's
 * native library forks {@code chmod} for each of the two; {@code RawLocalFileSystem} writes no
 * {@code .crc} file, so one fork a file is left (RawLocalFileSystem sets the new file's permission
 * too). {@code -Dbench.checksumLocalFs=true} runs with Hadoop's default instead, to measure the
 * difference.
 */
public final class LocalFileSystem {
  private LocalFileSystem() {}

  /** Entries for {@code withHadoopConfiguration} and the contenders' Hadoop configurations. */
  public static Map<String, String> hadoopConfiguration() {
    return Boolean.getBoolean("bench.checksumLocalFs")
        ? Map.of()
        : Map.of("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
  }
}
