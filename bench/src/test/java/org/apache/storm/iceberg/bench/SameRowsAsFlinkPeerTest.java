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

package org.apache.storm.iceberg.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.apache.storm.iceberg.bench.rows.UpsertKeys;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * EndToEnd and the Flink peer's FlinkPeer write the same rows, and so do RowLevelCost and
 * FlinkUpsertPeer. For the append peers: the first 10,000 rows EndToEnd's spout emits hash to the
 * digest that {@code FlinkPeerRowsTest} (bench/flink-peer) asserts of the rows FlinkPeer sends
 * Flink's sink. For the upsert peers: the first 10,000 rows
 * RowLevelCost sends the sink (the tuple values before the Kafka position) hash to the digest that
 * {@code FlinkUpsertPeerRowsTest} (bench/flink-peer) asserts of the rows FlinkUpsertPeer sends
 * Flink's sink. Each pair of tests holds the same digests: change the rows and both must change, so a
 * comparison of the peers cannot silently run on different rows. The flink-peer test runs only
 * where that module builds (profile flink-peer); this one runs in the quick tier.
 */
class SameRowsAsFlinkPeerTest {
  static final int ROWS = 10_000;

  @org.junit.jupiter.api.Test
  void endToEndSendsTheRowsTheFlinkPeerSends() throws Exception {
    // CountingSpout emits BenchData.values(row); the partition count only shapes the table, not the rows.
    BenchData data = new BenchData(5, 16);
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (long row = 0; row < ROWS; row++) {
      sha.update((data.values(row) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    assertThat(HexFormat.of().formatHex(sha.digest())).isEqualTo(APPEND_ROWS_DIGEST);
  }

  /** What {@code FlinkPeerRowsTest} asserts too. */
  static final String APPEND_ROWS_DIGEST = "2dc1a00db3818a6a840c545a39bc4c343ff8f8afb4a028bbd0d21cfd18773214";

  @ParameterizedTest(name = "columns={0} updates={1}%")
  @CsvSource({
    "5, 10, d69a7774933ad863fe05c0b437e76f053e964ec4506399c5c9178700126ad185",
    "5, 90, 379fa9defc50fb028c948a512974d1fac9374f192ce8dec4b217f15bdd6069da",
    "50, 10, cd9fa1ef33f23260ea5b0756ccc59c8d28a6489f1ac6df02844db0de5359827e",
    "50, 90, 52468765e02ab36c2fbe87c12ce7ae53df60a1f4e8a43af86a41ebec513bef8a",
  })
  void rowLevelCostSendsTheRowsTheFlinkPeerSends(int columns, int updatePercent, String digest) throws Exception {
    KeyedRows rows = new KeyedRows(columns);
    UpsertKeys keys = new UpsertKeys(updatePercent);
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (long i = 0; i < ROWS; i++) {
      long key = keys.next();
      List<Object> row = rows.tupleValues(key, i, false).subList(0, columns);
      assertThat(row.get(0)).isEqualTo(key);
      sha.update((row + "\n").getBytes(StandardCharsets.UTF_8));
    }
    assertThat(HexFormat.of().formatHex(sha.digest())).isEqualTo(digest);
    // The share of updates is what the name says: about (100 - updates)% of the changes bring a new key.
    assertThat(keys.distinctKeys()).isBetween(ROWS * (100 - updatePercent) / 100 - 200L, ROWS * (100 - updatePercent) / 100 + 200L);
  }
}
