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

package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.commit.CommitProtocol;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kernel's side of the WAL, on every store the build has (the stores' own contract is {@code
 * WalStoreContractTest}): entries are read back through the kernel's codec, so corrupt and
 * unknown-version entries are met the way a restarting task meets them.
 */
class StaleWalEntriesTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"table-fileio", "hadoop-fs", "test-memory"})
  void aCorruptEntryAndAnUnknownVersionEachGetAClearErrorAndAreDroppedAtRestart(String provider) {
    var catalog = TestCatalogs.load(TestCatalogs.hadoop(dir));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    Table table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    Map<String, String> properties = switch (provider) {
      case "hadoop-fs" -> Map.of("path", dir.resolve("wal-root").toUri().toString());
      case "test-memory" -> Map.of("space", dir.toString());
      default -> Map.of();
    };
    WalStore store = ProviderRegistry.find(WalStoreFactory.class, provider, getClass().getClassLoader()).create(properties);
    WalScope scope = new WalScope(table, "default", "topology", "iceberg", 0);
    byte[] good = DataFilesCodec.encode(new DataFilesCodec.Entry("future", table.name(), "iceberg", 0, 42L, List.of()), table.specs());
    store.put(scope, "corrupt", "{\"version\": 1, \"files\": [".getBytes(StandardCharsets.UTF_8));
    store.put(scope, "future", new String(good, StandardCharsets.UTF_8).replace("\"version\":" + DataFilesCodec.VERSION, "\"version\":7").getBytes(StandardCharsets.UTF_8));

    List<WalEntry> entries = store.list(scope);
    assertThat(entries).hasSize(2);
    for (WalEntry entry : entries) {
      String version = entry.commitId().equals("future") ? "7" : "-1";
      assertThatThrownBy(() -> DataFilesCodec.decode(entry.payload(), entry.location(), table.specs()))
          .isInstanceOf(DataFilesCodec.CorruptEntryException.class)
          .hasMessage("unrecognized version " + version + " or corrupt entry at " + entry.location());
    }

    // A restarting task logs them and drops them rather than failing to start.
    CommitProtocol protocol = new CommitProtocol(table, store, scope, Map.of());
    assertThat(protocol.clearStaleEntries()).isEqualTo(2);
    assertThat(store.list(scope)).isEmpty();
  }
}
