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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * FlinkUpsertPeer sends Flink's sink the rows RowLevelCost sends ours: its first 10,000 rows, read
 * back out of Flink's row format into plain values, hash to the digests {@code
 * SameRowsAsFlinkPeerTest} (bench) asserts of RowLevelCost's tuples. Runs where this module builds
 * (profile flink-peer).
 */
class FlinkUpsertPeerRowsTest {
  @ParameterizedTest(name = "columns={0} updates={1}%")
  @CsvSource({
    "5, 10, d69a7774933ad863fe05c0b437e76f053e964ec4506399c5c9178700126ad185",
    "5, 90, 379fa9defc50fb028c948a512974d1fac9374f192ce8dec4b217f15bdd6069da",
    "50, 10, cd9fa1ef33f23260ea5b0756ccc59c8d28a6489f1ac6df02844db0de5359827e",
    "50, 90, 52468765e02ab36c2fbe87c12ce7ae53df60a1f4e8a43af86a41ebec513bef8a",
  })
  void flinkUpsertPeerSendsTheRowsRowLevelCostSends(int columns, int updatePercent, String digest) throws Exception {
    FlinkUpsertPeer.Changes changes = new FlinkUpsertPeer.Changes(columns, updatePercent);
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (long i = 0; i < 10_000; i++) {
      sha.update((PlainValues.of(changes.map(i), columns) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    assertThat(HexFormat.of().formatHex(sha.digest())).isEqualTo(digest);
  }
}
