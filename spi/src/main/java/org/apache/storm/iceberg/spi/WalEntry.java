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

package org.apache.storm.iceberg.spi;

import java.util.Objects;

/**
 * One stored WAL entry: the commit id it was put under, where it lives (for messages), and its
 * payload. The payload's format belongs to the kernel; stores treat it as opaque bytes.
 */
public final class WalEntry {
  private final String commitId;
  private final String location;
  private final byte[] payload;

  public WalEntry(String commitId, String location, byte[] payload) {
    this.commitId = Objects.requireNonNull(commitId, "commitId");
    this.location = Objects.requireNonNull(location, "location");
    this.payload = Objects.requireNonNull(payload, "payload");
  }

  public String commitId() {
    return commitId;
  }

  public String location() {
    return location;
  }

  public byte[] payload() {
    return payload;
  }
}
