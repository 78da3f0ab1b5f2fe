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

package org.apache.storm.iceberg.trident;

import static org.apache.storm.iceberg.trident.TridentStages.updateWholeStream;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.Config;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.testing.DetachedTridentContext;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.trident.operation.Aggregator;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.state.State;
import org.apache.storm.trident.state.StateType;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.tuple.TridentTupleView;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code IcebergTrident.persist} in the row-level write modes, driven through its real stages as
 * Trident runs them: the key-hash function, three writing partitions' aggregators, and the one
 * committing state. After every transaction the table read back (deletes applied) equals the model
 * of the changes, row for row. Without the key partitioning (a key's changes spread over two
 * partitions of one transaction) the same changes leave a key twice, which is why persist
 * partitions row-level streams by key itself.
 */
class WholeStreamChangesTest {
  static final Schema SCHEMA = new Schema(
      List.of(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "payload", Types.StringType.get())),
      java.util.Set.of(1));
  static final Map<String, Object> CONF = Map.of(Config.TOPOLOGY_NAME, "changes");
  static final int PARTITIONS = 3;
  static final String[] OPS = {"c", "u", "d", "r", "I", "D", "UPDATE_BEFORE", "UPDATE_AFTER"};

  @TempDir Path dir;
  final TridentTupleView.FreshOutputFactory tuples =
      new TridentTupleView.FreshOutputFactory(new Fields("id", "region", "payload", "op", "seq"));
  final TridentTupleView.FreshOutputFactory descriptors = new TridentTupleView.FreshOutputFactory(TridentStages.descriptorFields());
  Table table;
  IcebergOptions options;
  long nextSequence;

  void createTable(int formatVersion, StateType type) {
    Map<String, String> catalogProperties = TestCatalogs.jdbcSqlite(dir);
    Catalog catalog = TestCatalogs.load(catalogProperties);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table = catalog.createTable(TableIdentifier.of("db", "accounts"), SCHEMA, PartitionSpec.builderFor(SCHEMA).bucket("id", 2).build(),
        Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
    options = new IcebergOptions.Builder()
        .withCatalogName("test")
        .withCatalogProperties(catalogProperties)
        .withTable("db.accounts")
        .withTridentStateType(type)
        .withWriteMode(WriteMode.CHANGELOG)
        .withChangeFields("op", "seq")
        .build();
  }

  /** The stages of one run of the topology: its writing partitions and committing state, opened as Trident opens them. */
  final class Stages {
    final List<Aggregator<Object>> writers = new ArrayList<>();
    final State state;
    final DetachedTridentContext stateContext = new DetachedTridentContext(0, 1);
    final KeyHashFunction keys = new KeyHashFunction(options);

    Stages() {
      for (int p = 0; p < PARTITIONS; p++) {
        Aggregator<Object> writer = TridentStages.filesAggregator(options);
        writer.prepare(CONF, new DetachedTridentContext(p, PARTITIONS));
        writers.add(writer);
      }
      state = TridentStages.wholeStreamStateFactory(options).makeState(CONF, stateContext, 0, 1);
      keys.prepare(CONF, new DetachedTridentContext(0, 1));
    }

    /** The partition persist sends a change to: its key hash's, chosen as Storm's fields grouping chooses. */
    int byKey(TridentTuple change) {
      Emitted hash = new Emitted();
      keys.execute(change, hash);
      return org.apache.storm.utils.TupleUtils.chooseTaskIndex(hash.values.get(0), PARTITIONS);
    }

    /** One transaction: each partition writes its changes and sends its descriptor; the state commits them together. */
    void run(long txid, List<TridentTuple> changes, ToIntFunction<TridentTuple> partitioner) {
      List<Object> batches = new ArrayList<>();
      for (Aggregator<Object> writer : writers) {
        batches.add(writer.init(txid, new Emitted()));
      }
      for (TridentTuple change : changes) {
        int p = partitioner.applyAsInt(change);
        writers.get(p).aggregate(batches.get(p), change, new Emitted());
      }
      Emitted sent = new Emitted();
      for (int p = 0; p < PARTITIONS; p++) {
        writers.get(p).complete(batches.get(p), sent);
      }
      state.beginCommit(txid);
      updateWholeStream(state, sent.values.stream().map(v -> (TridentTuple) descriptors.create(v)).toList(), new Emitted());
      state.commit(txid);
    }
  }

  /** What a stage emitted. */
  static final class Emitted implements TridentCollector {
    final List<List<Object>> values = new ArrayList<>();

    @Override
    public void emit(List<Object> values) {
      this.values.add(values);
    }

    @Override
    public void flush() {}

    @Override
    public void reportError(Throwable t) {
      throw new AssertionError(t);
    }
  }

  List<TridentTuple> randomChanges(Random random, int count) {
    List<TridentTuple> changes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String op = OPS[random.nextInt(OPS.length)];
      long sequence = nextSequence++;
      boolean removes = op.equalsIgnoreCase("d") || op.equals("UPDATE_BEFORE");
      changes.add(tuples.create(Arrays.asList((long) random.nextInt(6), "eu", removes ? null : "v" + sequence, op, sequence)));
    }
    return changes;
  }

  /** The source's state: each change applied in sequence order, a removal before an after-image at one sequence. */
  static void apply(Map<Long, String> model, List<TridentTuple> changes) {
    for (TridentTuple change : changes) {
      String op = change.getStringByField("op");
      if (op.equalsIgnoreCase("d") || op.equals("UPDATE_BEFORE")) {
        model.remove(change.getLongByField("id"));
      } else {
        model.put(change.getLongByField("id"), change.getStringByField("payload"));
      }
    }
  }

  /** The table read back with every delete applied: each key's payloads, so that a key twice shows. */
  Map<Long, List<String>> rows() {
    Map<Long, List<String>> rows = new TreeMap<>();
    for (Record record : TestTables.rows(table)) {
      rows.computeIfAbsent((Long) record.getField("id"), id -> new ArrayList<>()).add((String) record.getField("payload"));
    }
    return rows;
  }

  static Map<Long, List<String>> asRows(Map<Long, String> model) {
    Map<Long, List<String>> rows = new TreeMap<>();
    model.forEach((id, payload) -> rows.put(id, List.of(payload)));
    return rows;
  }

  @ParameterizedTest(name = "format v{0}, {1}")
  @CsvSource({"2, TRANSACTIONAL", "3, TRANSACTIONAL", "2, OPAQUE", "3, OPAQUE"})
  void eachTransactionOfKeyPartitionedChangesLeavesTheTableEqualToTheSource(int formatVersion, StateType type) {
    if (formatVersion == 3 ? type == StateType.TRANSACTIONAL : type == StateType.OPAQUE) {
      TestTiers.longTierOnly("the quick tier runs v2 transactional and v3 opaque");
    }
    createTable(formatVersion, type);
    Random random = new Random(formatVersion * 31L + type.ordinal());
    Stages stages = new Stages();
    Map<Long, String> model = new TreeMap<>();
    Map<Long, String> beforeLast = model;
    List<TridentTuple> last = List.of();
    for (long txid = 1; txid <= 8; txid++) {
      beforeLast = new TreeMap<>(model);
      last = randomChanges(random, 4 + random.nextInt(12));
      stages.run(txid, last, stages::byKey);
      apply(model, last);
      assertThat(rows()).as("after transaction %d", txid).isEqualTo(asRows(model));
    }

    // A restarted topology replays the last transaction: a transactional spout the same changes,
    // which are skipped; an opaque one other changes, which replace what the transaction wrote and deleted.
    Stages restarted = new Stages();
    List<TridentTuple> replay = type == StateType.TRANSACTIONAL ? last : randomChanges(random, 10);
    restarted.run(8, replay, restarted::byKey);
    if (type == StateType.OPAQUE) {
      model = beforeLast;
      apply(model, replay);
    }
    assertThat(rows()).as("after transaction 8 replayed by a restarted topology").isEqualTo(asRows(model));
    List<TridentTuple> next = randomChanges(random, 10);
    restarted.run(9, next, restarted::byKey);
    apply(model, next);
    assertThat(rows()).as("after transaction 9").isEqualTo(asRows(model));
  }

  /**
   * The committing state runs the tripwires on each transaction's changes, every partition's
   * together: a delete of a key the table could not hold, and a transaction older than one committed
   * before, are counted and logged; an opaque replay of the newest transaction is not checked again.
   */
  @Test
  void theStateCountsAndLogsDeletesOfUnseenKeysAndSequenceInversions() throws Exception {
    createTable(2, StateType.OPAQUE);
    Stages stages = new Stages();
    try (org.apache.storm.iceberg.testing.LogCapture log = new org.apache.storm.iceberg.testing.LogCapture()) {
      stages.run(1, List.of(change(1, "a", "c", 10), change(2, "b", "c", 11), change(9, null, "d", 12)), stages::byKey);
      org.apache.storm.iceberg.testing.Deadline.await(java.time.Duration.ofSeconds(30),
          () -> stages.stateContext.count("iceberg-deletes-of-unseen-keys") == 1, () -> "the unseen key counted; log: " + log.lines);
      assertThat(log.lines).anySatisfy(line -> assertThat(line).contains("of test.db.accounts deleted 1 key(s) that no data file"
          + " of the table could hold before it (id=9)"));

      stages.run(2, List.of(change(1, "old", "u", 5), change(3, "c", "c", 13)), stages::byKey);
      assertThat(stages.stateContext.count("iceberg-sequence-inversions")).isEqualTo(1);
      assertThat(log.lines).anySatisfy(line -> assertThat(line).contains("holds sequence number 5 (key id=1), below 12"));

      stages.run(2, List.of(change(1, "old", "u", 5), change(3, "c", "c", 13)), stages::byKey);
      assertThat(stages.stateContext.count("iceberg-sequence-inversions")).as("the opaque replay is not checked again").isEqualTo(1);
    }
    assertThat(stages.stateContext.count("iceberg-deletes-of-unseen-keys")).isEqualTo(1);
    assertThat(rows()).isEqualTo(Map.of(1L, List.of("old"), 2L, List.of("b"), 3L, List.of("c")));
  }

  TridentTuple change(long id, String payload, String op, long sequence) {
    return tuples.create(Arrays.asList(id, "eu", payload, op, sequence));
  }

  @Test
  void keysSpreadOverThePartitionsAndEqualKeysHashAlikeWhateverTheirJavaForm() {
    createTable(2, StateType.TRANSACTIONAL);
    Stages stages = new Stages();
    java.util.Set<Integer> reached = new java.util.HashSet<>();
    for (long key = 0; key < 6; key++) {
      reached.add(stages.byKey(tuples.create(Arrays.asList(key, "eu", "x", "c", 1L))));
    }
    assertThat(reached).as("partitions six keys reach").hasSizeGreaterThan(1);
    assertThat(stages.byKey(tuples.create(Arrays.asList(5, "eu", "x", "c", 1L))))
        .as("an int key and a long key of one value")
        .isEqualTo(stages.byKey(tuples.create(Arrays.asList(5L, "us", null, "d", 2L))));
  }

  @Test
  void aKeyColumnRenamedFromOutsideStillHashesAlikeUnderEitherName() {
    createTable(2, StateType.TRANSACTIONAL);
    Stages stages = new Stages();
    table.updateSchema().renameColumn("id", "account_id").commit();
    TridentTupleView.FreshOutputFactory renamed =
        new TridentTupleView.FreshOutputFactory(new Fields("account_id", "region", "payload", "op", "seq"));
    for (long key = 0; key < 6; key++) {
      assertThat(stages.byKey(renamed.create(Arrays.asList(key, "eu", "x", "c", 1L))))
          .as("key %d under its new name and its former one", key)
          .isEqualTo(stages.byKey(tuples.create(Arrays.asList(key, "eu", "x", "c", 1L))));
    }
  }

  @Test
  void aKeysChangesSpreadOverTwoPartitionsOfOneTransactionWouldLeaveItTwice() {
    createTable(2, StateType.TRANSACTIONAL);
    Stages stages = new Stages();
    List<TridentTuple> changes = List.of(
        tuples.create(Arrays.asList(1L, "eu", "first", "c", 1L)),
        tuples.create(Arrays.asList(1L, "eu", "second", "u", 2L)));
    int[] next = {0};
    stages.run(1, changes, change -> next[0]++ % PARTITIONS);
    assertThat(rows()).as("each partition wrote the key's row and a delete that cannot reach the other's")
        .isEqualTo(Map.of(1L, List.of("first", "second")));

    stages.run(2, List.of(tuples.create(Arrays.asList(2L, "eu", "third", "c", 3L)), tuples.create(Arrays.asList(2L, "eu", "fourth", "u", 4L))),
        stages::byKey);
    assertThat(rows().get(2L)).as("partitioned by key, the key's changes collapse in one partition").containsExactly("fourth");
  }
}
