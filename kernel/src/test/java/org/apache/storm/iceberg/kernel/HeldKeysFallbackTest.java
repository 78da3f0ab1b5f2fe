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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.storm.iceberg.WriteMode;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A batch of row-level changes that changes more keys than {@code withMaxHeldChangeKeys} writes
 * what it holds and then streams the rest through Iceberg's delta writer: the table read back
 * equals the model of the changes after every commit, a key changed again in the streamed part
 * costs a position delete (format version 2) or deletion vector (3) of its earlier row, and each key
 * still costs one equality delete. The helpers (table, task, model) are {@link RowLevelChangesTest}'s.
 */
class HeldKeysFallbackTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "format v{0}, {1}")
  // Two cases, not four: the quick tier is at CI's time limit; the stale change needs changelog, deletion vectors v3.
  @CsvSource({"2, upsert", "3, changelog"})
  void aBatchBeyondTheBoundStreamsTheRestAndLeavesTheTableEqualToTheModelAfterEveryCommit(int formatVersion, String mode) {
    RowLevelChangesTest run = new RowLevelChangesTest();
    run.dir = dir;
    run.createTable(formatVersion, PartitionSpec.builderFor(RowLevelChangesTest.SCHEMA).bucket("id", 2).build(),
        TestCatalogs.hadoop(dir));
    boolean changelog = mode.equals("changelog");
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = run.open(run.options(changelog ? WriteMode.CHANGELOG : WriteMode.UPSERT, 14)
        .withMaxHeldChangeKeys(3).build(), recorder);
    List<Tuple> log = new ArrayList<>();

    // Batch 1: three keys held, the fourth switches it to streaming; then key 5 is inserted, updated,
    // deleted and inserted again, held keys are updated and deleted, and (changelog) a stale change comes.
    send(run, sink, log, "c", 1, "a", 1);
    send(run, sink, log, "c", 2, "b", 2);
    send(run, sink, log, "c", 3, "c", 3);
    send(run, sink, log, "u", 3, "c2", 4);
    send(run, sink, log, "c", 4, "d", 5);
    send(run, sink, log, "u", 1, "a2", 6);
    send(run, sink, log, "c", 5, "e", 7);
    send(run, sink, log, "u", 5, "e2", 8);
    send(run, sink, log, "d", 5, null, 9);
    send(run, sink, log, "c", 5, "e3", 10);
    send(run, sink, log, "d", 2, null, 11);
    send(run, sink, log, "u", 4, "d2", 12);
    send(run, sink, log, "c", 6, "f", 13);
    if (changelog) {
      send(run, sink, log, "u", 4, "stale", 5); // below key 4's sequence 12 in this batch: must not win
    } else {
      send(run, sink, log, "u", 6, "f2", 14);
    }
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(run.rows()).as("after the first commit").isEqualTo(RowLevelChangesTest.model(log));
    Snapshot first = run.current();
    assertThat(RowLevelChangesTest.summary(first, "added-equality-deletes")).as("one a key: 1 to 6").isEqualTo("6");
    // Replaced or removed in the batch after it was written: 1's held row, 4's held row, e, e2, 2's
    // held row, and in upsert 6's f.
    long positions = changelog ? 5 : 6;
    assertPositionDeletes(run, first, formatVersion, positions);
    assertThat(RowLevelChangesTest.summary(first, "added-records")).as("4 held rows, then every row streamed, superseded or not")
        .isEqualTo(String.valueOf(4 + (changelog ? 6 : 7)));

    // Batch 2: keys of the first batch's held and streamed rows change again, and streaming begins anew.
    send(run, sink, log, "u", 1, "a3", 20);
    send(run, sink, log, "d", 3, null, 21);
    send(run, sink, log, "u", 5, "e4", 22);
    send(run, sink, log, "c", 2, "b2", 23);
    send(run, sink, log, "u", 1, "a4", 24);
    send(run, sink, log, "d", 6, null, 25);
    send(run, sink, log, "c", 7, "g", 26);
    send(run, sink, log, "u", 5, "e5", 27);
    send(run, sink, log, "d", 1, null, 28);
    send(run, sink, log, "c", 1, "a5", 29);
    send(run, sink, log, "u", 7, "g2", 30);
    send(run, sink, log, "u", 4, "d3", 31);
    send(run, sink, log, "d", 7, null, 32);
    send(run, sink, log, "c", 8, "h", 33);
    assertThat(recorder.failedIds()).isEmpty();
    assertThat(run.rows()).as("after the second commit").isEqualTo(RowLevelChangesTest.model(log));
    Snapshot second = run.current();
    assertThat(RowLevelChangesTest.summary(second, "added-equality-deletes")).as("keys 1 to 8").isEqualTo("8");
    assertPositionDeletes(run, second, formatVersion, 5); // a4's a3, e5's e4, 1's a4, g2's g, 7's g2
    assertThat(run.counter("iceberg-equality-deletes-committed")).isEqualTo(14);
    sink.close();
  }

  /** A streaming batch's open files count for the open-files seal policy: its writers hold buffers as an append's do. */
  @org.junit.jupiter.api.Test
  void theOpenFilesSealPolicySeesTheFilesAStreamingBatchOpens() {
    RowLevelChangesTest run = new RowLevelChangesTest();
    run.dir = dir;
    run.createTable(3, PartitionSpec.unpartitioned(), TestCatalogs.hadoop(dir));
    RecordingCollector recorder = new RecordingCollector();
    SinkTask sink = run.open(run.options(WriteMode.UPSERT, 1_000).withMaxHeldChangeKeys(1)
        .withSealPolicy("open-files", java.util.Map.of("max-open-files", "1")).build(), recorder);
    List<Tuple> log = new ArrayList<>();
    send(run, sink, log, "c", 1, "a", 1);
    assertThat(run.current()).as("one key held: no file open").isNull();
    send(run, sink, log, "c", 2, "b", 2);
    assertThat(run.current()).as("streaming opened a data and an equality-delete file: sealed").isNotNull();
    assertThat(run.rows()).isEqualTo(RowLevelChangesTest.model(log));
    assertThat(recorder.ackedIds()).hasSize(2);
    sink.close();
  }

  private static void send(RowLevelChangesTest run, SinkTask sink, List<Tuple> log, String op, long id, String payload, long seq) {
    Tuple change = run.change(op, id, payload, seq);
    log.add(change);
    sink.execute(change);
  }

  /**
   * The snapshot added {@code positions} position deletes: in deletion vectors on format version 3
   * (and no position-delete file), in position-delete files of the data files' format on version 2.
   */
  private static void assertPositionDeletes(RowLevelChangesTest run, Snapshot snapshot, int formatVersion, long positions) {
    assertThat(RowLevelChangesTest.summary(snapshot, "added-position-deletes")).isEqualTo(String.valueOf(positions));
    List<DeleteFile> positionDeletes = new ArrayList<>();
    for (DeleteFile file : snapshot.addedDeleteFiles(run.table.io())) {
      if (file.content() == FileContent.POSITION_DELETES) {
        positionDeletes.add(file);
      }
    }
    assertThat(positionDeletes).isNotEmpty();
    if (formatVersion >= 3) {
      assertThat(positionDeletes).as("deletion vectors only").allSatisfy(file -> {
        assertThat(file.format()).isEqualTo(FileFormat.PUFFIN);
        assertThat(file.referencedDataFile()).isNotNull();
        assertThat(file.location()).endsWith(".puffin");
      });
      assertThat(RowLevelChangesTest.summary(snapshot, "added-dvs")).isEqualTo(String.valueOf(positionDeletes.size()));
    } else {
      assertThat(positionDeletes).as("position-delete files, no deletion vector")
          .allSatisfy(file -> assertThat(file.format()).isEqualTo(FileFormat.PARQUET));
      assertThat(RowLevelChangesTest.summary(snapshot, "added-dvs")).isEqualTo("0");
    }
  }
}
