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

package org.apache.storm.iceberg.testing;

import java.util.Map;
import org.apache.iceberg.io.FileIO;

/** A FileIO that reads, writes and deletes but cannot list by prefix. */
final class NonListingFileIO implements FileIO {
  private final FileIO delegate;

  NonListingFileIO(FileIO delegate) {
    this.delegate = delegate;
  }

  @Override
  public org.apache.iceberg.io.InputFile newInputFile(String path) {
    return delegate.newInputFile(path);
  }

  @Override
  public org.apache.iceberg.io.OutputFile newOutputFile(String path) {
    return delegate.newOutputFile(path);
  }

  @Override
  public void deleteFile(String path) {
    delegate.deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }
}
