package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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
import org.apache.storm.iceberg.testing.LocalClusterRuns;
import org.apache.storm.iceberg.testing.ParquetFooters;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write-audit-publish with per-sink write properties in LocalCluster, on a JDBC (SQLite) catalog:
 * the bolt and the split sink (the latter configured through {@code fromMap}'s Flux keys, its
 * committer through a lost commit answer) commit every id once to the branch, none to main, in
 * zstd files over the table's gzip; a fast-forward then publishes exactly those rows on main.
 */
@ExtendWith(SharedLocalCluster.class)
class BranchWritesLocalClusterTest {
  static final long EVENTS = 400;
  static final String AUDIT = "audit";
  static final Map<String, String> ZSTD = Map.of(TableProperties.PARQUET_COMPRESSION, "zstd");
  static LocalCluster cluster;

  @TempDir Path dir;
  Map<String, String> catalogProperties;
  Table table;

  @BeforeAll
  static void useSharedCluster(LocalCluster shared) {
    cluster = shared;
  }

  @BeforeEach
  void createTable() {
    catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    // The table's own codec is gzip (Iceberg's default is zstd), so zstd in the footers is the sink's.
    // Unpartitioned: one file per batch keeps the reads behind the assertions cheap.
    table = catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.PARQUET_COMPRESSION, "gzip"));
  }

  @Test
  void theBoltCommitsEveryIdOnceToTheBranchInZstdAndAFastForwardPublishesThem() throws Exception {
    String ledgerKey = UUID.randomUUID().toString();
    IcebergOptions options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.events")
        .withBranch(AUDIT)
        .withWriteProperties(ZSTD)
        .withCommitIntervalRecords(100)
        .withCommitIntervalMillis(1_000)
        .withTickIntervalSecs(1)
        .build();
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
    builder.setBolt("iceberg", new IcebergBolt(options), 2).shuffleGrouping("events");

    LocalClusterRuns.runUntilAllAcked(cluster, "branch-" + ledgerKey.substring(0, 8), builder.createTopology(), ledgerKey, EVENTS);

    assertOnTheBranchOnlyThenPublished();
  }

  @Test
  void theSplitSinkFromFluxKeysLandsEveryIdOnceOnTheBranchThroughALostCommitAnswer() throws Exception {
    Faults faults = Faults.create();
    faults.inject(Faults.CommitFault.UNKNOWN_AFTER, 1);
    String ledgerKey = UUID.randomUUID().toString();
    Map<String, Object> writer = fluxKeys(catalogProperties);
    writer.put("commit-interval-records", 100);
    writer.put("commit-interval-millis", 1_000);
    Map<String, Object> committer = fluxKeys(FaultInjectingCatalog.properties(catalogProperties, faults));
    committer.put("group-commit-interval-millis", 1_000);
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout(ledgerKey, EVENTS), 1);
    builder.setBolt("iceberg-writer", new IcebergWriterBolt(IcebergOptions.fromMap(writer)), 2)
        .fieldsGrouping("events", new Fields("region"));
    builder.setBolt("iceberg-committer", new IcebergCommitterBolt(IcebergOptions.fromMap(committer)), 1)
        .globalGrouping("iceberg-writer");

    LocalClusterRuns.runUntilAllAcked(cluster, "split-branch-" + ledgerKey.substring(0, 8), builder.createTopology(), ledgerKey, EVENTS);

    assertThat(faults.injected).as("lost commit answers").hasValue(1);
    assertOnTheBranchOnlyThenPublished();
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

  void assertOnTheBranchOnlyThenPublished() {
    table.refresh();
    assertThat(table.snapshot(SnapshotRef.MAIN_BRANCH)).as("main's head").isNull();
    assertThat(copiesPerId(TestTables.ids(table, AUDIT))).as("copies of each id on the branch").isEqualTo(oncePerId());

    List<Snapshot> snapshots = TestTables.snapshots(table);
    List<Snapshot> branch = new ArrayList<>();
    SnapshotUtil.ancestorsOf(table.snapshot(AUDIT).snapshotId(), table::snapshot).forEach(branch::add);
    assertThat(snapshots).as("every snapshot is on the branch").hasSameElementsAs(branch);
    assertThat(snapshots).allSatisfy(s -> assertThat(s.summary()).containsKey(IcebergOptions.COMMIT_ID_PROPERTY));
    assertThat(snapshots.stream().collect(Collectors.groupingBy(s -> s.summary().get(IcebergOptions.COMMIT_ID_PROPERTY), Collectors.counting())))
        .as("snapshots per commit id").allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1L));
    assertThat(ParquetFooters.codecs(dataFiles(AUDIT))).as("codecs in the footers").containsExactly(CompressionCodecName.ZSTD);

    table.manageSnapshots().fastForwardBranch(SnapshotRef.MAIN_BRANCH, AUDIT).commit();
    assertThat(copiesPerId(TestTables.ids(table, SnapshotRef.MAIN_BRANCH))).as("copies of each id on main, published").isEqualTo(oncePerId());
  }

  List<DataFile> dataFiles(String ref) {
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
