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


package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.Config;
import org.apache.storm.iceberg.PreflightReport.Status;
import org.apache.storm.iceberg.testing.FaultInjectingCatalog;
import org.apache.storm.iceberg.testing.Faults;
import org.apache.storm.iceberg.testing.RestCatalogServer;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The preflight against real catalogs: every check passes for a sink that would run, and each fails,
 * with its fix, when the one thing it checks is wrong; nothing it probes stays behind.
 */
class PreflightTest {
  static final String[] CHECKS = {"secrets", "catalog", "table", "format-version", "columns", "write-mode", "branch", "mapper", "format",
      "hadoop", "data-files", "wal", "topology"};

  @TempDir Path dir;

  Table createTable(Map<String, String> catalogProperties, Map<String, String> tableProperties) {
    Catalog catalog = TestCatalogs.load(catalogProperties);
    if (!((SupportsNamespaces) catalog).namespaceExists(Namespace.of("db"))) {
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    }
    return catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, PartitionSpec.unpartitioned(), tableProperties);
  }

  static IcebergOptions.Builder options(Map<String, String> catalogProperties) {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties).withTable("db.events");
  }

  static Status status(PreflightReport report, String check) {
    assertThat(report.line(check)).as("line %s in%n%s", check, report).isNotNull();
    return report.line(check).status();
  }

  static String message(PreflightReport report, String check) {
    return report.line(check).message();
  }

  @ParameterizedTest
  @EnumSource(TestCatalogs.Kind.class)
  void everyCheckPassesForASinkThatWouldRunAndItsProbesAreGone(TestCatalogs.Kind kind) throws Exception {
    try (TestCatalogs.Running catalog = TestCatalogs.start(kind, dir)) {
      Table table = createTable(catalog.properties(), Map.of());

      PreflightReport report = options(catalog.properties()).build().preflight();

      assertThat(report.lines()).extracting(PreflightReport.Line::check).containsExactly(CHECKS);
      for (String check : CHECKS) {
        assertThat(status(report, check)).as("%s in%n%s", check, report).isEqualTo(check.equals("topology") ? Status.WARN : Status.PASS);
      }
      assertThat(report.failed()).isFalse();
      assertThat(message(report, "table")).startsWith("test.db.events exists: format v2, 4 columns");
      assertThat(message(report, "data-files")).startsWith("wrote, read and deleted a probe file in ");
      assertThat(message(report, "wal")).startsWith("WAL store 'table-fileio': put, listed and deleted a probe entry at ");
      table.refresh();
      assertThat(table.currentSnapshot()).as("nothing committed").isNull();
      assertThat(TestTables.walEntryLocations(table)).as("no WAL entry left").isEmpty();
      if (!kind.onS3()) {
        try (var files = Files.walk(Path.of(java.net.URI.create(table.location())).resolve("data"))) {
          assertThat(files.filter(Files::isRegularFile).toList()).as("no data file left").isEmpty();
        } catch (java.nio.file.NoSuchFileException noDataDirectory) {
          // the probe's directory went with it
        }
      }
    }
  }

  @Test
  void aMissingTableWithoutAutoCreateFailsWithTheFix() {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    PreflightReport report = options(catalog).build().preflight();

    assertThat(report.failed()).isTrue();
    assertThat(status(report, "catalog")).as("%s", report).isEqualTo(Status.PASS);
    assertThat(status(report, "table")).isEqualTo(Status.FAIL);
    assertThat(message(report, "table")).isEqualTo("Table db.events does not exist in catalog 'test' and auto-create is off:"
        + " create the table, or set withAutoCreate(schema, spec) (Flux auto-create)");
    assertThat(report.toString()).endsWith("preflight FAILED: 1 check(s) to fix");
  }

  @Test
  void autoCreateShowsWhatItWouldCreateAndCreatesNothing() {
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));

    PreflightReport report = options(catalogProperties).withAutoCreate(TestTables.SCHEMA, TestTables.REGION_DAY).build().preflight();

    assertThat(report.failed()).as("%s", report).isFalse();
    assertThat(message(report, "table")).startsWith("does not exist: auto-create would create it (nothing was created): format v2,"
        + " 4 columns [id (long), region (string), event_time (timestamptz), payload (string)], partitioned by [identity(region), day(event_time)], at ");
    assertThat(status(report, "data-files")).isEqualTo(Status.PASS);
    assertThat(status(report, "wal")).isEqualTo(Status.PASS);
    assertThat(catalog.tableExists(TableIdentifier.of("db", "events"))).isFalse();
    assertThat(dir.resolve("warehouse/db/events")).as("the probes' directories are gone").doesNotExist();
  }

  @Test
  void anUnresolvableSecretReferenceFailsNamingTheVariableNeverAValue() {
    Map<String, String> catalog = new java.util.HashMap<>(TestCatalogs.jdbcSqlite(dir));
    catalog.put("jdbc.password", "env:STORM_ICEBERG_PREFLIGHT_UNSET");
    catalog.put("jdbc.user", "sink");
    PreflightReport report = options(catalog).build().preflight();

    assertThat(status(report, "secrets")).isEqualTo(Status.FAIL);
    assertThat(message(report, "secrets")).isEqualTo("Catalog property 'jdbc.password' refers to environment variable"
        + " STORM_ICEBERG_PREFLIGHT_UNSET, which is not set on this worker; set it in the environment the supervisor starts"
        + " workers with");
  }

  @Test
  void aCatalogThatCannotBeReachedFailsWithoutItsPassword() {
    Map<String, String> catalog = Map.of("type", "rest", "uri", "http://127.0.0.1:9/catalog", "token", "tok-S3CR3T-9");
    PreflightReport report = options(catalog).build().preflight();

    assertThat(status(report, "catalog")).as("%s", report).isEqualTo(Status.FAIL);
    assertThat(status(report, "table")).isEqualTo(Status.WARN);
    assertThat(message(report, "table")).isEqualTo("not checked: the catalog did not load");
    assertThat(report.toString()).doesNotContain("tok-S3CR3T-9");
  }

  @Test
  void anUpsertOnAFormatV1TableFailsTheWriteMode() {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    createTable(catalog, Map.of(TableProperties.FORMAT_VERSION, "1"));
    PreflightReport report = options(catalog).withWriteMode(WriteMode.UPSERT).withKeyColumns("id")
        .withSourcePositions("kafka", Map.of("bootstrap.servers", "127.0.0.1:9")).build().preflight();

    assertThat(status(report, "format-version")).isEqualTo(Status.PASS);
    assertThat(status(report, "write-mode")).isEqualTo(Status.FAIL);
    assertThat(message(report, "write-mode")).startsWith("Table test.db.events has format version 1; write mode upsert writes"
        + " delete files, which need format version 2 or later");
  }

  @Test
  void anUpsertKeyIsShownWithThePartitionColumns() {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    createTable(catalog, Map.of());
    PreflightReport report = options(catalog).withWriteMode(WriteMode.UPSERT).withKeyColumns("id")
        .withSourcePositions("kafka", Map.of("bootstrap.servers", "127.0.0.1:9")).build().preflight();

    assertThat(message(report, "write-mode")).isEqualTo("upsert by key [id] (the table's identifier fields: []); partition"
        + " columns [] are key columns");
  }

  @Test
  void aBranchThatIsATagFails() {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    Table table = createTable(catalog, Map.of());
    table.newAppend().commit();
    table.manageSnapshots().createTag("release", table.currentSnapshot().snapshotId()).commit();

    PreflightReport report = options(catalog).withBranch("release").build().preflight();
    assertThat(status(report, "branch")).isEqualTo(Status.FAIL);
    assertThat(message(report, "branch")).startsWith("withBranch(\"release\") names a tag of test.db.events");

    assertThat(message(options(catalog).withBranch("audit").build().preflight(), "branch"))
        .isEqualTo("branch audit does not exist yet: the first commit creates it from main's current snapshot");
  }

  @Test
  void tuplesWithoutARequiredColumnFailTheMapperAndUnmatchedFieldsWarn() {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    createTable(catalog, Map.of());
    IcebergOptions options = options(catalog).build();

    PreflightReport lacking = options.preflight(List.of("region", "payload"));
    assertThat(status(lacking, "mapper")).isEqualTo(Status.FAIL);
    assertThat(message(lacking, "mapper")).isEqualTo("the tuples carry fields [region, payload] but not the required column(s)"
        + " [id] of table db.events: every tuple would be refused; declare those fields upstream, or make the columns optional");

    PreflightReport extra = options.preflight(List.of("id", "region", "colour"));
    assertThat(status(extra, "mapper")).isEqualTo(Status.WARN);
    assertThat(message(extra, "mapper")).isEqualTo("mapper 'field-name' fills [id, region] from the tuples' fields;"
        + " [event_time, payload] will take their default or null; fields [colour] match no column: a strict mapper refuses such tuples,"
        + " otherwise the fields are dropped");
  }

  @Test
  void theMapperCheckMatchesAsTheMapperDoesFormerNamesAndWriteDefaultsIncluded() {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    Table table = createTable(catalog, Map.of(TableProperties.FORMAT_VERSION, "3"));
    table.updateSchema().renameColumn("id", "event_id").commit();
    table.updateSchema().addRequiredColumn("source", org.apache.iceberg.types.Types.StringType.get(),
        org.apache.iceberg.expressions.Literal.of("web")).commit();

    PreflightReport report = options(catalog).build().preflight(List.of("id", "region"));
    assertThat(status(report, "mapper")).as("%s", report).isEqualTo(Status.PASS);
    assertThat(message(report, "mapper")).isEqualTo("mapper 'field-name' fills [id, region] from the tuples' fields;"
        + " [event_time, payload, source] will take their default or null");
  }

  @Test
  void aDataLocationThatCannotBeWrittenFailsTheDataProbe() throws Exception {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    Table table = createTable(catalog, Map.of());
    // As root, file modes stop nothing: a file where the data directory should be does.
    Files.writeString(Path.of(java.net.URI.create(table.location())).resolve("data"), "not a directory");

    PreflightReport report = options(catalog).build().preflight();
    assertThat(status(report, "data-files")).as("%s", report).isEqualTo(Status.FAIL);
    assertThat(status(report, "wal")).isEqualTo(Status.PASS);
  }

  @Test
  void aWalStoreThatCannotListFailsTheWalProbe() {
    Map<String, String> real = TestCatalogs.hadoop(dir);
    createTable(real, Map.of());
    Faults faults = Faults.create();
    faults.hidePrefixListing = true;

    PreflightReport report = options(FaultInjectingCatalog.properties(real, faults)).build().preflight();
    assertThat(status(report, "wal")).as("%s", report).isEqualTo(Status.FAIL);
    assertThat(message(report, "wal")).contains("WAL store 'table-fileio' needs a FileIO that can list by prefix");
  }

  @Test
  void aProbeThatCannotBeDeletedIsReportedByItsLocation() {
    Map<String, String> real = TestCatalogs.hadoop(dir);
    createTable(real, Map.of());
    Faults faults = Faults.create();
    faults.walDeleteFailures.set(1);

    PreflightReport report = options(FaultInjectingCatalog.properties(real, faults)).build().preflight();
    assertThat(status(report, "wal")).as("%s", report).isEqualTo(Status.FAIL);
    assertThat(message(report, "wal")).matches("the probe entry .*/metadata/_storm_wal/default/storm-iceberg-preflight/"
        + "preflight/0/preflight-.*\\.json was written but could not be deleted \\(.*injected: cannot delete WAL entry .*\\):"
        + " delete it by hand");
  }

  @Test
  void aDefaultFormatNoWriterProvidesFailsTheFormat() {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    createTable(catalog, Map.of(TableProperties.DEFAULT_FILE_FORMAT, "csv"));

    PreflightReport report = options(catalog).build().preflight();
    assertThat(status(report, "format")).as("%s", report).isEqualTo(Status.FAIL);
    assertThat(message(report, "format")).contains("csv");
    assertThat(message(report, "hadoop")).isEqualTo("not checked: no format writer");
  }

  static final class Placeholder extends BaseRichSpout {
    @Override
    public void open(Map<String, Object> conf, org.apache.storm.task.TopologyContext context,
        org.apache.storm.spout.SpoutOutputCollector collector) {}

    @Override
    public void nextTuple() {}

    @Override
    public void declareOutputFields(org.apache.storm.topology.OutputFieldsDeclarer declarer) {
      declarer.declare(new Fields(TestTables.FIELDS));
    }
  }

  @Test
  void theTopologysPreflightChecksEachSinkComponentWithItsConfiguration() {
    Map<String, String> catalog = TestCatalogs.hadoop(dir);
    createTable(catalog, Map.of());
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new Placeholder(), 1);
    builder.setBolt("iceberg", new IcebergBolt(options(catalog).withCommitDeadlineMarginMillis(5_000).build()), 2)
        .shuffleGrouping("events");
    Config conf = new Config();
    conf.setMessageTimeoutSecs(30);

    PreflightReport fits = IcebergTopologies.preflight(conf, builder);
    assertThat(fits.failed()).as("%s", fits).isFalse();
    assertThat(fits.lines().get(0).message()).isEqualTo("'iceberg' runs IcebergBolt in 2 task(s)");
    assertThat(message(fits, "mapper")).isEqualTo("mapper 'field-name' fills [id, region, event_time, payload] from the tuples' fields");
    assertThat(status(fits, "topology")).isEqualTo(Status.PASS);

    conf.setMessageTimeoutSecs(5);
    PreflightReport tooShort = IcebergTopologies.preflight(conf, builder);
    assertThat(status(tooShort, "topology")).isEqualTo(Status.FAIL);
    assertThat(message(tooShort, "topology")).contains("topology.message.timeout.secs");
  }
}
