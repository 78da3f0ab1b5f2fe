package org.apache.storm.iceberg.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every WAL store must do, on a real table: each backend's test extends this class and says
 * which provider, with which properties, to test. Entries are read back through the kernel's own
 * codec, so corrupt and unknown-version entries are checked the way a restarting task meets them.
 */
abstract class WalStoreContractTest {
  @TempDir Path dir;
  Table table;
  WalStore store;

  /** The provider name and properties of the store under test; {@code dir} is a fresh temp dir. */
  abstract String providerName();

  abstract Map<String, String> providerProperties(Path dir);

  @BeforeEach
  void createStore() {
    var catalog = TestCatalogs.load(TestCatalogs.hadoop(dir));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    store = ProviderRegistry.find(WalStoreFactory.class, providerName(), getClass().getClassLoader())
        .create(providerProperties(dir.resolve("wal-root")));
  }

  WalScope scope(String namespace, String component, int task) {
    return new WalScope(table, namespace, "topology", component, task);
  }

  byte[] entry(String commitId) {
    return DataFilesCodec.encode(new DataFilesCodec.Entry(commitId, table.name(), "iceberg", 0, 42L, List.of()), table.specs());
  }

  @Test
  void putListAndDeleteAnEntry() {
    WalScope scope = scope("default", "iceberg", 0);
    store.validate(scope);
    String location = store.put(scope, "commit-1", entry("commit-1"));

    List<WalEntry> entries = store.list(scope);
    assertThat(entries).singleElement().satisfies(e -> {
      assertThat(e.commitId()).isEqualTo("commit-1");
      assertThat(e.location()).isEqualTo(location);
      assertThat(DataFilesCodec.decode(e.payload(), e.location(), table.specs()).id()).isEqualTo("commit-1");
    });

    store.delete(scope, "commit-1");
    assertThat(store.list(scope)).isEmpty();
  }

  @Test
  void deletingWhatIsAlreadyDeletedIsNotAnError() {
    WalScope scope = scope("default", "iceberg", 0);
    store.put(scope, "commit-1", entry("commit-1"));
    store.delete(scope, "commit-1");
    store.delete(scope, "commit-1");
    store.delete(scope, "never-written");
    assertThat(store.list(scope)).isEmpty();
  }

  @Test
  void aCorruptEntryAndAnUnknownVersionEachGetAClearError() {
    WalScope scope = scope("default", "iceberg", 0);
    store.put(scope, "corrupt", "{\"version\": 1, \"files\": [".getBytes(StandardCharsets.UTF_8));
    store.put(scope, "future", new String(entry("future"), StandardCharsets.UTF_8).replace("\"version\":" + DataFilesCodec.VERSION, "\"version\":7").getBytes(StandardCharsets.UTF_8));

    for (WalEntry entry : store.list(scope)) {
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

  @Test
  void namespacesComponentsAndTasksAreIsolated() {
    store.put(scope("default", "iceberg", 0), "a", entry("a"));
    store.put(scope("default", "iceberg", 1), "b", entry("b"));
    store.put(scope("other", "iceberg", 0), "c", entry("c"));
    store.put(scope("default", "committer", 0), "d", entry("d"));

    assertThat(store.list(scope("default", "iceberg", 0))).extracting(WalEntry::commitId).containsExactly("a");
    assertThat(store.list(scope("default", "iceberg", 1))).extracting(WalEntry::commitId).containsExactly("b");
    assertThat(store.list(scope("other", "iceberg", 0))).extracting(WalEntry::commitId).containsExactly("c");
    assertThat(store.list(scope("default", "committer", 0))).extracting(WalEntry::commitId).containsExactly("d");
    assertThat(store.list(scope("unused", "iceberg", 0))).isEmpty();
  }

  @Test
  void listAllFindsEveryScopesEntriesOfTheTable() {
    store.put(scope("default", "iceberg", 0), "a", entry("a"));
    store.put(scope("other", "committer", 3), "b", entry("b"));
    assertThat(store.listAll(table)).extracting(WalEntry::commitId).containsExactlyInAnyOrder("a", "b");
    assertThat(store.listAll(table)).extracting(WalEntry::location).anySatisfy(l -> assertThat(l).contains("/other/topology/committer/3/"));
  }

  @Test
  void twoTasksWritingAtOnceSeeOnlyTheirOwnEntries() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int task = 0; task < 2; task++) {
        int taskIndex = task;
        results.add(pool.submit(() -> {
          WalScope scope = scope("default", "iceberg", taskIndex);
          for (int i = 0; i < 50; i++) {
            store.put(scope, "t" + taskIndex + "-" + i, entry("t" + taskIndex + "-" + i));
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
}
