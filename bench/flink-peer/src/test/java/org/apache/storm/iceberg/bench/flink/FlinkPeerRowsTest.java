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

package org.apache.storm.iceberg.bench.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * FlinkPeer sends Flink's sink the rows EndToEnd's spout sends ours: its first 10,000 rows, read
 * back out of Flink's row format into plain values, hash to the digest {@code
 * SameRowsAsFlinkPeerTest} (bench) asserts of EndToEnd's tuples. Runs where this module builds
 * (profile flink-peer).
 */
class FlinkPeerRowsTest {
  @Test
  void flinkPeerSendsTheRowsEndToEndSends() throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (long row = 0; row < 10_000; row++) {
      sha.update((PlainValues.of(FlinkRows.row(row, FlinkPeer.COLUMNS), FlinkPeer.COLUMNS) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    assertThat(HexFormat.of().formatHex(sha.digest()))
        .isEqualTo("2dc1a00db3818a6a840c545a39bc4c343ff8f8afb4a028bbd0d21cfd18773214");
  }
}
