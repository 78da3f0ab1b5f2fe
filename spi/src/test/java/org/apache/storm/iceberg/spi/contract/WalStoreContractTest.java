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

package org.apache.storm.iceberg.spi.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.spi.WalStoreListing;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every WAL store must do ({@link WalStore}'s contract), on real tables (by default in a
 * HadoopCatalog; {@link #newTables} can put them elsewhere, on S3 say): each backend's test extends
 * this class and names the provider and its properties.
 */
public abstract class WalStoreContractTest extends ProviderContractTest<WalStore, WalStoreFactory> {
  private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  protected ContractTables tables;
  protected Table table;
  protected WalStore store;

  @Override
  protected final Class<WalStoreFactory> kind() {
    return WalStoreFactory.class;
  }

  /** Where the contract's tables live; {@link #dir} is a fresh directory. */
  protected ContractTables newTables() {
    return new ContractTables(dir);
  }

  @BeforeEach
  void createTableAndStore() {
    tables = newTables();
    table = tables.create("events", SCHEMA);
    store = create();
  }

  protected WalScope scope(String namespace, String component, int task) {
    return new WalScope(table, namespace, "topology", component, task);
  }

  private static byte[] payload(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  public void theFactoryAcceptsTheTablesFileIo() {
    assertThatCode(() -> factory().validate(table)).doesNotThrowAnyException();
  }

  @Test
  public void putListAndDeleteAnEntry() {
    WalScope scope = scope("default", "iceberg", 0);
    String location = store.put(scope, "commit-1", payload("one"));

    assertThat(store.list(scope)).singleElement().satisfies(entry -> {
      assertThat(entry.commitId()).isEqualTo("commit-1");
      assertThat(entry.location()).isEqualTo(location);
      assertThat(entry.payload()).isEqualTo(payload("one"));
    });

    store.delete(scope, "commit-1");
    assertThat(store.list(scope)).isEmpty();
  }

  @Test
  public void anEntryOutlivesTheStoreThatPutIt() {
    WalScope scope = scope("default", "iceberg", 0);
    store.put(scope, "commit-1", payload("one"));

    WalStore restarted = create();
    assertThat(restarted.list(scope)).singleElement().satisfies(entry -> {
      assertThat(entry.commitId()).isEqualTo("commit-1");
      assertThat(entry.payload()).isEqualTo(payload("one"));
    });
    restarted.delete(scope, "commit-1");
    assertThat(store.list(scope)).isEmpty();
  }

  @Test
  public void payloadsAndCommitIdsComeBackExactly() {
    WalScope scope = scope("default", "iceberg", 0);
    byte[] everyByte = new byte[256];
    for (int i = 0; i < everyByte.length; i++) {
      everyByte[i] = (byte) i;
    }
    String oddId = "a/b c:%2F?#ø";
    store.put(scope, oddId, everyByte);
    store.put(scope, "empty", new byte[0]);

    assertThat(store.list(scope)).extracting(WalEntry::commitId).containsExactlyInAnyOrder(oddId, "empty");
    for (WalEntry entry : store.list(scope)) {
      assertThat(entry.payload()).isEqualTo(entry.commitId().equals(oddId) ? everyByte : new byte[0]);
    }
    store.delete(scope, oddId);
    assertThat(store.list(scope)).extracting(WalEntry::commitId).containsExactly("empty");
  }

  @Test
  public void putUnderAnExistingCommitIdReplacesTheEntry() {
    WalScope scope = scope("default", "iceberg", 0);
    store.put(scope, "commit-1", payload("first"));
    store.put(scope, "commit-1", payload("second"));
    assertThat(store.list(scope)).singleElement().satisfies(entry -> assertThat(entry.payload()).isEqualTo(payload("second")));
  }

  @Test
  public void deletingWhatIsAlreadyDeletedIsNotAnError() {
    WalScope scope = scope("default", "iceberg", 0);
    store.put(scope, "commit-1", payload("one"));
    store.delete(scope, "commit-1");
    store.delete(scope, "commit-1");
    store.delete(scope, "never-written");
    assertThat(store.list(scope)).isEmpty();
  }

  @Test
  public void tablesNamespacesTopologiesComponentsAndTasksAreIsolated() {
    Table other = tables.create("other", SCHEMA);
    store.put(scope("default", "iceberg", 0), "a", payload("a"));
    store.put(scope("default", "iceberg", 1), "b", payload("b"));
    store.put(scope("other", "iceberg", 0), "c", payload("c"));
    store.put(scope("default", "committer", 0), "d", payload("d"));
    store.put(new WalScope(table, "default", "other-topology", "iceberg", 0), "e", payload("e"));
    store.put(new WalScope(other, "default", "topology", "iceberg", 0), "f", payload("f"));

    assertThat(store.list(scope("default", "iceberg", 0))).extracting(WalEntry::commitId).containsExactly("a");
    assertThat(store.list(scope("default", "iceberg", 1))).extracting(WalEntry::commitId).containsExactly("b");
    assertThat(store.list(scope("other", "iceberg", 0))).extracting(WalEntry::commitId).containsExactly("c");
    assertThat(store.list(scope("default", "committer", 0))).extracting(WalEntry::commitId).containsExactly("d");
    assertThat(store.list(new WalScope(table, "default", "other-topology", "iceberg", 0)))
        .extracting(WalEntry::commitId).containsExactly("e");
    assertThat(store.list(new WalScope(other, "default", "topology", "iceberg", 0)))
        .extracting(WalEntry::commitId).containsExactly("f");
    assertThat(store.list(scope("unused", "iceberg", 0))).isEmpty();
  }

  @Test
  public void twoTasksWritingAtOnceSeeOnlyTheirOwnEntries() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int task = 0; task < 2; task++) {
        int taskIndex = task;
        results.add(pool.submit(() -> {
          WalScope scope = scope("default", "iceberg", taskIndex);
          for (int i = 0; i < 50; i++) {
            store.put(scope, "t" + taskIndex + "-" + i, payload("t" + taskIndex + "-" + i));
            if (i % 2 == 0) {
              store.delete(scope, "t" + taskIndex + "-" + i);
            }
          }
          return store.list(scope).stream().map(WalEntry::commitId).sorted().toList();
        }));
      }
      for (int task = 0; task < 2; task++) {
        List<String> expected = new ArrayList<>();
        for (int i = 1; i < 50; i += 2) {
          expected.add("t" + task + "-" + i);
        }
        assertThat(results.get(task).get()).containsExactlyInAnyOrderElementsOf(expected);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  public void aStoreThatListsWholeTablesFindsEveryScopesEntriesOfThatTableOnly() {
    assumeTrue(store instanceof WalStoreListing, "the store does not list whole tables");
    Table other = tables.create("other", SCHEMA);
    store.put(scope("default", "iceberg", 0), "a", payload("a"));
    store.put(scope("other", "committer", 3), "b", payload("b"));
    store.put(new WalScope(other, "default", "topology", "iceberg", 0), "c", payload("c"));

    List<WalEntry> all = ((WalStoreListing) store).listAll(table);
    assertThat(all).extracting(WalEntry::commitId).containsExactlyInAnyOrder("a", "b");
    assertThat(all).extracting(WalEntry::location).anySatisfy(l -> assertThat(l).contains("other/topology/committer/3/"));
    assertThat(all).filteredOn(e -> e.commitId().equals("b")).singleElement()
        .satisfies(e -> assertThat(e.payload()).isEqualTo(payload("b")));
  }
}
