package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.testing.Deadline;
import org.apache.storm.iceberg.testing.ReplayingSpout;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition-aware grouping as an upstream task runs it, against a real table in a HadoopCatalog:
 * which of 8 sink tasks each tuple goes to, by the table's spec as it is and as it changes.
 */
class IcebergPartitionGroupingTest {
  static final int SINK_TASKS = 8;
  static final List<Integer> TARGETS = List.of(11, 12, 13, 14, 15, 16, 17, 18);
  static final PartitionSpec BUCKETS = PartitionSpec.builderFor(TestTables.SCHEMA).bucket("id", 16).build();
  static final Function<Long, Integer> BUCKET_OF = Transforms.bucket(16).bind(Types.LongType.get())::apply;

  @TempDir Path dir;
  Map<String, String> catalogProperties;
  Catalog catalog;

  @BeforeEach
  void catalog() {
    catalogProperties = TestCatalogs.hadoop(dir);
    catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
  }

  IcebergOptions.Builder options() {
    return new IcebergOptions.Builder().withCatalogName("test").withCatalogProperties(catalogProperties).withTable("db.events");
  }

  Table create(PartitionSpec spec) {
    return catalog.createTable(TableIdentifier.of("db", "events"), TestTables.SCHEMA, spec, Map.of("format-version", "2"));
  }

  /** The grouping as Storm prepares it in the spout's task {@code spoutTask}: the spout's stream into the sink's tasks. */
  static IcebergPartitionGrouping prepared(IcebergPartitionGrouping grouping, int spoutTask) {
    TopologyBuilder builder = new TopologyBuilder();
    builder.setSpout("events", new ReplayingSpout("unused", 0), 2);
    Map<Integer, String> taskToComponent = new HashMap<>(Map.of(1, "events", 2, "events"));
    TARGETS.forEach(task -> taskToComponent.put(task, "iceberg"));
    Map<String, List<Integer>> componentTasks = Map.of("events", List.of(1, 2), "iceberg", TARGETS);
    Map<String, Map<String, Fields>> streams =
        Map.of("events", Map.of("default", new Fields(TestTables.FIELDS)), "iceberg", Map.of());
    TopologyContext context = new TopologyContext(builder.createTopology(), new HashMap<>(), taskToComponent, componentTasks,
        streams, new HashMap<>(), "grouping-1", null, null, spoutTask, 6700, List.of(1, 2), new HashMap<>(), new HashMap<>(),
        new HashMap<>(), new HashMap<>(), new AtomicBoolean(), new StormMetricRegistry());
    grouping.prepare(context, new GlobalStreamId("events", "default"), TARGETS);
    return grouping;
  }

  /** The one task each id's tuple goes to. */
  static Map<Long, Integer> route(IcebergPartitionGrouping grouping, long ids) {
    Map<Long, Integer> tasks = new TreeMap<>();
    for (long id = 0; id < ids; id++) {
      List<Integer> chosen = grouping.chooseTasks(1, ReplayingSpout.values(id));
      assertThat(chosen).hasSize(1);
      tasks.put(id, chosen.get(0));
    }
    return tasks;
  }

  /** The tasks each bucket's ids went to. */
  static Map<Integer, Set<Integer>> tasksByBucket(Map<Long, Integer> routes) {
    Map<Integer, Set<Integer>> byBucket = new TreeMap<>();
    routes.forEach((id, task) -> byBucket.computeIfAbsent(BUCKET_OF.apply(id), b -> new TreeSet<>()).add(task));
    return byBucket;
  }

  @Test
  void eachPartitionGoesToOneTaskTheSameFromEveryUpstreamTaskAndEveryTaskGetsTwoOfSixteenBuckets() {
    create(BUCKETS);
    IcebergOptions options = options().build();
    Map<Long, Integer> first = route(prepared(new IcebergPartitionGrouping(options), 1), 2_000);
    Map<Long, Integer> second = route(prepared(new IcebergPartitionGrouping(options), 2), 2_000);

    assertThat(second).as("the second upstream task's choices").isEqualTo(first);
    Map<Integer, Set<Integer>> byBucket = tasksByBucket(first);
    assertThat(byBucket).hasSize(16).allSatisfy((bucket, tasks) -> assertThat(tasks).as("bucket " + bucket).hasSize(1));
    Map<Integer, Long> bucketsPerTask = new TreeMap<>();
    byBucket.values().forEach(tasks -> bucketsPerTask.merge(tasks.iterator().next(), 1L, Long::sum));
    assertThat(bucketsPerTask).as("buckets per sink task").containsOnlyKeys(TARGETS).allSatisfy((task, n) -> assertThat(n).isEqualTo(2));
  }

  @Test
  void aStrictMapperThatRefusesTheProjectedColumnsIsGivenTheWholeRowAndRoutesTheSame() {
    create(BUCKETS);
    Map<Long, Integer> lenient = route(prepared(new IcebergPartitionGrouping(options().build()), 1), 500);
    IcebergOptions strict = options().withRecordMapper(new FieldNameRecordMapper(false, true)).build();
    assertThat(route(prepared(new IcebergPartitionGrouping(strict), 1), 500)).isEqualTo(lenient);
  }

  @Test
  void withTwoTasksPerPartitionEachPartitionIsSpreadOverTwoConsecutiveTasks() {
    create(BUCKETS);
    Map<Integer, Set<Integer>> byBucket =
        tasksByBucket(route(prepared(new IcebergPartitionGrouping(options().build(), 2), 1), 4_000));
    Map<Integer, Set<Integer>> alone = tasksByBucket(route(prepared(new IcebergPartitionGrouping(options().build()), 1), 4_000));
    byBucket.forEach((bucket, tasks) -> {
      int own = TARGETS.indexOf(alone.get(bucket).iterator().next());
      assertThat(tasks).as("bucket " + bucket).containsExactlyInAnyOrder(TARGETS.get(own), TARGETS.get((own + 1) % SINK_TASKS));
    });
  }

  @Test
  void aTupleTheMapperRefusesGoesToTheFirstTask() {
    create(BUCKETS);
    IcebergPartitionGrouping grouping = prepared(new IcebergPartitionGrouping(options().build()), 1);
    for (int i = 0; i < 20; i++) {
      assertThat(grouping.chooseTasks(1, new Values(null, "eu", null, "no id"))).containsExactly(TARGETS.get(0));
    }
  }

  @Test
  void anUnpartitionedTableSpreadsTuplesOverEveryTaskInTurn() {
    create(PartitionSpec.unpartitioned());
    Map<Long, Integer> routes = route(prepared(new IcebergPartitionGrouping(options().build()), 1), 800);
    Map<Integer, Long> perTask = new TreeMap<>();
    routes.values().forEach(task -> perTask.merge(task, 1L, Long::sum));
    assertThat(perTask).containsOnlyKeys(TARGETS).allSatisfy((task, n) -> assertThat(n).isEqualTo(100));
  }

  @Test
  void aSpecChangedFromOutsideIsFollowedWithinTheRefreshInterval() throws Exception {
    Table table = create(PartitionSpec.builderFor(TestTables.SCHEMA).identity("region").build());
    IcebergPartitionGrouping grouping = prepared(new IcebergPartitionGrouping(options().build(), 1, 100), 1);
    assertThat(tasksOfRegion(grouping, "eu")).as("one region, one task").hasSize(1);

    table.updateSpec().addField(Expressions.bucket("id", 16)).commit();
    Deadline.await(Duration.ofSeconds(10), () -> tasksOfRegion(grouping, "eu").size() == SINK_TASKS,
        () -> "the region's tuples spread by bucket over every task; went to " + tasksOfRegion(grouping, "eu"));
  }

  @Test
  void aTableTheSinkHasNotCreatedYetIsGroupedByOnceItExists() throws Exception {
    IcebergPartitionGrouping grouping =
        prepared(new IcebergPartitionGrouping(options().withAutoCreate(TestTables.SCHEMA, BUCKETS).build(), 1, 100), 1);
    assertThat(tasksByBucket(route(grouping, 400)).get(0)).as("before the table exists, in turn").hasSizeGreaterThan(1);

    create(BUCKETS);
    Deadline.await(Duration.ofSeconds(10),
        () -> tasksByBucket(route(grouping, 400)).values().stream().allMatch(tasks -> tasks.size() == 1),
        () -> "each bucket on one task; " + tasksByBucket(route(grouping, 400)));
  }

  @Test
  void optionsWithSourcePositionsAreRefusedWhenTheGroupingIsMadeNamingTheFieldsGrouping() {
    IcebergOptions positions = options().withSourcePositions("kafka", Map.of("bootstrap.servers", "127.0.0.1:9092")).build();
    assertThatThrownBy(() -> new IcebergPartitionGrouping(positions))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("IcebergPartitionGrouping cannot feed a sink of db.events that writes with source positions"
            + " (withSourcePositions): it sends each tuple to the task of its Iceberg partition, so one source partition"
            + " reaches several tasks, while source positions need each source partition on one task. Use"
            + " fieldsGrouping(<spout>, new Fields(\"topic\", \"partition\")) instead, or drop withSourcePositions for"
            + " at-least-once delivery");
  }

  @Test
  void tasksPerPartitionBelowOneIsRefused() {
    assertThatThrownBy(() -> new IcebergPartitionGrouping(options().build(), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tasksPerPartition is 0; give 1 to send each partition to one task, or more to spread it");
  }

  /** The tasks 256 tuples of {@code region} (one day) go to. */
  static Set<Integer> tasksOfRegion(IcebergPartitionGrouping grouping, String region) {
    Set<Integer> tasks = new TreeSet<>();
    for (long id = 0; id < 256; id++) {
      tasks.addAll(grouping.chooseTasks(1, new Values(id, region, null, "p")));
    }
    return tasks;
  }
}
