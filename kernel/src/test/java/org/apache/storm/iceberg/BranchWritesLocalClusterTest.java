package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertAll;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ParquetFooters;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write-audit-publish with per-sink write properties in LocalCluster, on JDBC (SQLite) catalogs:
 * one topology runs the bolt and the split sink side by side, each on a table of its own (one
 * topology, since a submission and its kill cost seconds in the quick tier). The split sink is
 * configured through {@code fromMap}'s Flux keys and its committer meets a lost commit answer.
 * Each commits every id once to the branch, none to main, in zstd files over the table's gzip; a
 * fast-forward then publishes exactly those rows on main.
 */
@ExtendWith(SharedLocalCluster.class)
// Long tier, checked before the class starts its cluster (the quick tier was over its 8 minutes).
// The quick tier's proofs: BranchWritesTest (the bolt's and the split committer's tasks on a branch),
// WritePropertiesTest (the footers) and CommitFailureTest on a branch.
@EnabledIf("org.apache.storm.iceberg.testing.TestTiers#isLongTier")
class BranchWritesLocalClusterTest {
  static final long EVENTS = 400;
  static final String AUDIT = "audit";
  static final Map<String, String> ZSTD = Map.of(TableProperties.PARQUET_COMPRESSION, "zstd");
  static LocalCluster cluster;

  @TempDir Path dir;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  /** A catalog of its own under {@code dir/name}, holding db.events; returns its properties. */
  Map<String, String> catalogWithTable(String name) throws java.io.IOException {
    Map<String, String> properties = TestCatalogs.jdbcSqlite(java.nio.file.Files.createDirectories(dir.resolve(name)));
    Catalog catalog = TestCatalogs.load(properties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    // The table's own codec is gzip (Iceberg's default is zstd), so zstd in the footers is the sink's.
    // Unpartitioned: one file per batch keeps the reads behind the assertions cheap.
    catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.PARQUET_COMPRESSION, "gzip"));
    return properties;
  }

  static Table events(Map<String, String> catalogProperties) {
    return TestCatalogs.load(catalogProperties).loadTable(TableIdentifier.of("db", "events"));
  }

  @Test
  void theBoltAndTheSplitSinkThroughALostCommitAnswerCommitEveryIdOnceToTheBranchInZstdForAFastForwardToPublish() throws Exception {
    Map<String, String> boltCatalog = catalogWithTable("bolt");
    Map<String, String> splitCatalog = catalogWithTable("split");
    Faults faults = Faults.create();
    faults.inject(Faults.CommitFault.UNKNOWN_AFTER, 1);
    String boltLedger = UUID.randomUUID().toString();
    String splitLedger = UUID.randomUUID().toString();
    TopologyBuilder builder = new TopologyBuilder();

    IcebergOptions bolt = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(boltCatalog)
        .withTable("db.events")
        .withBranch(AUDIT)
        .withWriteProperties(ZSTD)
        .withCommitIntervalRecords(100)
        .withCommitIntervalMillis(1_000)
        .withTickIntervalSecs(1)
        .build();
    builder.setSpout("bolt-events", new ReplayingSpout(boltLedger, EVENTS), 1);
    builder.setBolt("iceberg", new IcebergBolt(bolt), 2).shuffleGrouping("bolt-events");

    Map<String, Object> writer = fluxKeys(splitCatalog);
    writer.put("commit-interval-records", 100);
    writer.put("commit-interval-millis", 1_000);
    Map<String, Object> committer = fluxKeys(FaultInjectingCatalog.properties(splitCatalog, faults));
    committer.put("group-commit-interval-millis", 1_000);
    builder.setSpout("split-events", new ReplayingSpout(splitLedger, EVENTS), 1);
    builder.setBolt("iceberg-writer", new IcebergWriterBolt(IcebergOptions.fromMap(writer)), 2)
        .fieldsGrouping("split-events", new Fields("region"));
    builder.setBolt("iceberg-committer", new IcebergCommitterBolt(IcebergOptions.fromMap(committer)), 1)
        .globalGrouping("iceberg-writer");

    ReplayingSpout.Ledger boltAcks = ReplayingSpout.ledger(boltLedger);
    LocalClusterRuns.runUntilAllAcked(cluster, "branch-" + boltLedger.substring(0, 8), builder.createTopology(),
        LocalClusterRuns.config(), splitLedger, EVENTS,
        () -> Deadline.await(Duration.ofSeconds(180), () -> boltAcks.acked.size() == EVENTS,
            () -> "all " + EVENTS + " ids acked by the bolt; acked " + boltAcks.acked.size()));

    assertThat(faults.injected).as("lost commit answers").hasValue(1);
    assertAll(
        () -> assertOnTheBranchOnlyThenPublished("the bolt's table", events(boltCatalog)),
        () -> assertOnTheBranchOnlyThenPublished("the split sink's table", events(splitCatalog)));
  }

  /** The options map a Flux file would give {@code fromMap}, as a mutable map. */
  static Map<String, Object> fluxKeys(Map<String, String> catalog) {
    Map<String, Object> keys = new HashMap<>();
    keys.put("catalog-name", "test");
    keys.put("catalog", catalog);
    keys.put("table", "db.events");
    keys.put("tick-interval-secs", 1);
    keys.put("branch", AUDIT);
    keys.put("write-properties", ZSTD);
    return keys;
  }

  static void assertOnTheBranchOnlyThenPublished(String which, Table table) {
    table.refresh();
    assertThat(table.snapshot(SnapshotRef.MAIN_BRANCH)).as(which + ": main's head").isNull();
    assertThat(copiesPerId(TestTables.ids(table, AUDIT))).as(which + ": copies of each id on the branch").isEqualTo(oncePerId());

    List<Snapshot> snapshots = TestTables.snapshots(table);
    List<Snapshot> branch = new ArrayList<>();
    SnapshotUtil.ancestorsOf(table.snapshot(AUDIT).snapshotId(), table::snapshot).forEach(branch::add);
    assertThat(snapshots).as(which + ": every snapshot is on the branch").hasSameElementsAs(branch);
    assertThat(snapshots).allSatisfy(s -> assertThat(s.summary()).as(which).containsKey(IcebergOptions.COMMIT_ID_PROPERTY));
    assertThat(snapshots.stream().collect(Collectors.groupingBy(s -> s.summary().get(IcebergOptions.COMMIT_ID_PROPERTY), Collectors.counting())))
        .as(which + ": snapshots per commit id").allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1L));
    assertThat(ParquetFooters.codecs(dataFiles(table, AUDIT))).as(which + ": codecs in the footers").containsExactly(CompressionCodecName.ZSTD);

    table.manageSnapshots().fastForwardBranch(SnapshotRef.MAIN_BRANCH, AUDIT).commit();
    assertThat(copiesPerId(TestTables.ids(table, SnapshotRef.MAIN_BRANCH))).as(which + ": copies of each id on main, published").isEqualTo(oncePerId());
  }

  static List<DataFile> dataFiles(Table table, String ref) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().useRef(ref).planFiles()) {
      tasks.forEach(task -> files.add(task.file()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  static Map<Long, Long> copiesPerId(List<Long> ids) {
    return ids.stream().collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
  }

  static Map<Long, Long> oncePerId() {
    return LongStream.range(0, EVENTS).boxed().collect(Collectors.toMap(Function.identity(), id -> 1L, (a, b) -> a, TreeMap::new));
  }
}
