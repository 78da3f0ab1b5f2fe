package org.apache.storm.iceberg.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.LocalCluster;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.testing.SharedLocalCluster;
import org.apache.storm.iceberg.testing.TestTiers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The inspect tool, on a table the example topology wrote, with a pending WAL entry left behind. */
@ExtendWith(SharedLocalCluster.class)
class IcebergInspectTest {
  @TempDir Path warehouse;

  @Test
  void itReportsCommitsPendingWalEntriesAndSmallFiles(LocalCluster cluster) throws Exception {
    TestTiers.longTierOnly("the quick tier keeps the tool's argument checks; the kernel tests cover WAL entries");
    IcebergBoltExampleTopology.run(cluster, warehouse, 2_000);
    Table table = CatalogUtil.buildIcebergCatalog("local", LocalExampleRun.catalogProperties(warehouse), new org.apache.hadoop.conf.Configuration())
        .loadTable(TableIdentifier.parse(IcebergBoltExampleTopology.TABLE));
    WalStore wal = ProviderRegistry.find(WalStoreFactory.class, "table-fileio", getClass().getClassLoader()).create(Map.of());
    DataFile committed = SnapshotChanges.builderFor(table).snapshot(table.currentSnapshot()).build().addedDataFiles().iterator().next();
    WalScope crashedTask = new WalScope(table, "default", "iceberg-example", "iceberg", 1);
    wal.put(crashedTask, "crashed-commit",
        DataFilesCodec.encode(new DataFilesCodec.Entry("crashed-commit", table.name(), "iceberg", 1, 1_000L, List.of(committed)), table.specs()));

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    IcebergInspect.inspect(table, wal, 20, 61_000L, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String report = bytes.toString(StandardCharsets.UTF_8);

    String commitId = table.currentSnapshot().summary().get("storm.iceberg.commit-id");
    assertThat(report)
        .contains("recent storm-iceberg commits")
        .contains(commitId)
        .contains("pending WAL entries (1)")
        .contains("/metadata/_storm_wal/default/iceberg-example/iceberg/1/crashed-commit.json")
        .contains("commit crashed-commit, age 60 s, 1 data files:")
        .contains(committed.location())
        .contains("small files: the last ")
        .contains("SMALL FILES: commit less often");
  }

  @Test
  void badArgumentsSayWhatIsExpected() {
    assertThatThrownBy(() -> IcebergInspect.Arguments.parse(new String[] {"--tabel", "x"}))
        .hasMessageStartingWith("unknown option --tabel; use --catalog KEY=VALUE");
    assertThatThrownBy(() -> IcebergInspect.Arguments.parse(new String[] {"--table", "db.t"}))
        .hasMessage("usage: IcebergInspect --catalog KEY=VALUE ... --table NS.TABLE");
    assertThatThrownBy(() -> IcebergInspect.Arguments.parse(new String[] {"--catalog", "s3cr3t"}))
        .hasMessage("expected KEY=VALUE, got a value without '='");
  }
}
