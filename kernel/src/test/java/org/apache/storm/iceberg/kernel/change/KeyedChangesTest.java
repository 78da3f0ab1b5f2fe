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


package org.apache.storm.iceberg.kernel.change;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.storm.iceberg.spi.InternalRow;
import org.junit.jupiter.api.Test;

/** One batch's changes collapse per key by the key's value, whatever Java form the mapper gave it. */
class KeyedChangesTest {
  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "at", Types.TimestampType.withZone()),
      Types.NestedField.optional(2, "v", Types.StringType.get()));

  static Record row(OffsetDateTime at, String v) {
    Record row = GenericRecord.create(SCHEMA);
    row.setField("at", at);
    row.setField("v", v);
    return row;
  }

  @Test
  void oneInstantAtTwoOffsetsIsOneKey() {
    ChangeKey key = new ChangeKey(new int[] {1}, TypeUtil.select(SCHEMA, Set.of(1)));
    KeyedChanges<Record> changes = new KeyedChanges<>(SCHEMA, key, true, RowModel.GENERIC);
    OffsetDateTime utc = OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 0, ZoneOffset.UTC);

    changes.put(new ChangeRow<>(ChangeOp.INSERT, null, row(utc, "first")), null);
    changes.put(new ChangeRow<>(ChangeOp.UPDATE_AFTER, null, row(utc.withOffsetSameInstant(ZoneOffset.ofHours(2)), "second")), null);

    assertThat(changes.finals()).as("one key: a later change of it replaces the earlier in the batch").hasSize(1);
    assertThat(changes.finals().iterator().next().row().getField("v")).isEqualTo("second");
  }

  /** A one-column string key is compared by its text, whatever CharSequence the mapper carried it in. */
  @Test
  void oneTextIsOneKeyWhateverCharSequenceCarriesIt() {
    ChangeKey key = new ChangeKey(new int[] {2}, TypeUtil.select(SCHEMA, Set.of(2)));
    KeyedChanges<Record> changes = new KeyedChanges<>(SCHEMA, key, true, RowModel.GENERIC);
    OffsetDateTime at = OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 0, ZoneOffset.UTC);
    Record asBuilder = row(at, null);
    asBuilder.setField("v", new StringBuilder("k"));

    changes.put(new ChangeRow<>(ChangeOp.INSERT, null, row(at, "k")), null);
    changes.put(new ChangeRow<>(ChangeOp.UPDATE_AFTER, null, row(at.plusHours(1), "other")), null);
    changes.put(new ChangeRow<>(ChangeOp.UPDATE_AFTER, null, asBuilder), null);

    assertThat(changes.finals()).extracting(state -> state.row().getField("at"))
        .as("two keys, in first-arrival order; the builder's change replaced the string's")
        .containsExactly(at, at.plusHours(1));
  }

  /** A key of two columns is one key only when both columns match. */
  @Test
  void aKeyOfTwoColumnsMatchesOnBoth() {
    ChangeKey key = new ChangeKey(new int[] {1, 2}, TypeUtil.select(SCHEMA, Set.of(1, 2)));
    KeyedChanges<Record> changes = new KeyedChanges<>(SCHEMA, key, true, RowModel.GENERIC);
    OffsetDateTime at = OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 0, ZoneOffset.UTC);

    changes.put(new ChangeRow<>(ChangeOp.INSERT, 1L, row(at, "a")), null);
    changes.put(new ChangeRow<>(ChangeOp.INSERT, 2L, row(at, "b")), null);
    changes.put(new ChangeRow<>(ChangeOp.DELETE, 3L, row(at.withOffsetSameInstant(ZoneOffset.ofHours(5)), "a")), null);

    assertThat(changes.finals()).hasSize(2);
    assertThat(changes.finals()).extracting(KeyFinal::row).extracting(row -> row == null ? null : row.getField("v"))
        .as("(at, a) deleted by its last change; (at, b) kept").containsExactly(null, "b");
  }

  /** The unseen-keys tripwire looks only at keys the batch removed without writing them, in any order. */
  @Test
  void onlyKeysTheBatchRemovedWithoutWritingThemAreReportedAsRemoved() {
    ChangeKey key = new ChangeKey(new int[] {2}, TypeUtil.select(SCHEMA, Set.of(2)));
    KeyedChanges<Record> changes = new KeyedChanges<>(SCHEMA, key, false, RowModel.GENERIC);
    OffsetDateTime at = OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 0, ZoneOffset.UTC);
    changes.put(new ChangeRow<>(ChangeOp.DELETE, 1L, row(at, "deleted only")), null);
    changes.put(new ChangeRow<>(ChangeOp.DELETE, 2L, row(at, "deleted, then written")), null);
    changes.put(new ChangeRow<>(ChangeOp.INSERT, 3L, row(at, "deleted, then written")), null);
    changes.put(new ChangeRow<>(ChangeOp.INSERT, 4L, row(at, "written, then deleted")), null);
    changes.put(new ChangeRow<>(ChangeOp.DELETE, 5L, row(at, "written, then deleted")), null);
    changes.put(new ChangeRow<>(ChangeOp.UPDATE_BEFORE, 6L, row(at, "deleted twice")), null);
    changes.put(new ChangeRow<>(ChangeOp.DELETE, 7L, row(at, "deleted twice")), null);

    ChangeSummary.RemovedKeys removed = changes.summary(0).removedKeys();
    assertThat(removed.keys()).extracting(ChangeSummary.RemovedKey::description)
        .containsExactly("v=deleted only", "v=deleted twice");
    assertThat(removed.total()).isEqualTo(2);

    KeyedChanges<Record> upserts = new KeyedChanges<>(SCHEMA, key, true, RowModel.GENERIC);
    upserts.put(new ChangeRow<>(ChangeOp.INSERT, 1L, row(at, "a")), null);
    assertThat(upserts.summary(0).removedKeys().total()).as("nothing removed: no pass over the keys").isZero();
  }

  /**
   * Internal rows: a timestamp key is its microseconds, which the map compares directly; a message
   * that names the key shows the instant, not the count.
   */
  @Test
  void internalRowsCollapseByTheInternalKeyAndDescribeItAsAnInstant() {
    ChangeKey key = new ChangeKey(new int[] {1}, TypeUtil.select(SCHEMA, Set.of(1)));
    KeyedChanges<InternalRow> changes = new KeyedChanges<>(SCHEMA, key, false, RowModel.INTERNAL);
    long micros = DateTimeUtil.microsFromTimestamptz(OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 0, ZoneOffset.UTC));
    changes.put(new ChangeRow<>(ChangeOp.INSERT, 1L, internalRow(micros, "first")), null);
    changes.put(new ChangeRow<>(ChangeOp.UPDATE_AFTER, 2L, internalRow(micros, "second")), null);
    changes.put(new ChangeRow<>(ChangeOp.DELETE, 3L, internalRow(micros + 1, null)), null);

    assertThat(changes.finals()).extracting(state -> state.row() == null ? null : state.row().get(1, String.class))
        .as("two keys: the first replaced in the batch, the second only deleted").containsExactly("second", null);
    assertThat(changes.summary(0).removedKeys().keys()).extracting(ChangeSummary.RemovedKey::description)
        .containsExactly("at=2026-11-01T10:00:00.000001+00:00");
  }

  static InternalRow internalRow(long at, String v) {
    InternalRow row = new InternalRow(2);
    row.set(0, at);
    row.set(1, v);
    return row;
  }

  static final Schema ACCOUNTS = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "payload", Types.StringType.get()));

  static ChangeRow<Record> change(ChangeOp op, long sequence, long id, String payload) {
    Record row = GenericRecord.create(ACCOUNTS);
    row.setField("id", id);
    row.setField("payload", payload);
    return new ChangeRow<>(op, sequence, row);
  }

  /**
   * A batch that streams writes what it held (each key's delete, then its final row), then each
   * change that supersedes its key's winner: one delete a key for what earlier commits hold, a
   * delete of the batch's own row only while it holds one, and nothing for a stale change.
   */
  @Test
  void aStreamingBatchWritesWhatItHeldThenEachChangeThatWinsAndNothingStale() {
    ChangeKey key = new ChangeKey(new int[] {1}, TypeUtil.select(ACCOUNTS, Set.of(1)));
    KeyedChanges<Record> changes = new KeyedChanges<>(ACCOUNTS, key, false, RowModel.GENERIC);
    java.util.List<String> written = new java.util.ArrayList<>();
    ChangeWriter<Record> writer = new ChangeWriter<>() {
      @Override
      public void deleteKey(Record deleted, org.apache.iceberg.StructLike partition) {
        written.add("delete " + deleted.getField("id"));
      }

      @Override
      public void write(Record row, org.apache.iceberg.StructLike partition) {
        written.add("write " + row.getField("id") + "=" + row.getField("payload"));
      }
    };
    changes.put(change(ChangeOp.INSERT, 1, 1, "a0"), null);
    changes.put(change(ChangeOp.UPDATE_AFTER, 2, 1, "a"), null);
    changes.put(change(ChangeOp.INSERT, 3, 2, "b"), null);
    assertThat(changes.streams()).isFalse();
    changes.stream(writer);
    assertThat(written).as("what it held: a superseded row is never written")
        .containsExactly("delete 1", "write 1=a", "delete 2", "write 2=b");
    assertThat(changes.finals()).as("no rows held once it streams").allSatisfy(state -> assertThat(state.row()).isNull());

    written.clear();
    changes.put(change(ChangeOp.UPDATE_AFTER, 4, 1, "a2"), null);
    changes.put(change(ChangeOp.DELETE, 5, 2, null), null);
    changes.put(change(ChangeOp.DELETE, 6, 2, null), null);
    changes.put(change(ChangeOp.UPDATE_AFTER, 0, 1, "stale"), null);
    changes.put(change(ChangeOp.INSERT, 7, 3, "c"), null);
    changes.put(change(ChangeOp.DELETE, 8, 4, null), null);
    changes.put(change(ChangeOp.INSERT, 9, 2, "b2"), null);
    changes.put(change(ChangeOp.UPDATE_BEFORE, 9, 2, "b2"), null);
    assertThat(written).containsExactly(
        "write 1=a2", // replaces the held row (by position, in the delta writer)
        "delete 2", // the batch's own row of key 2
        // key 2 deleted again: nothing left to remove; key 1's stale change (sequence 0): nothing
        "delete 3", "write 3=c", // a new key: its equality delete, then its row
        "delete 4", // a new key only removed
        "write 2=b2"); // re-inserted: its equality delete is written already; the update-before at 9 ranks first
    assertThat(changes.keys()).isEqualTo(4);
    assertThat(changes.summary(0).removedKeys().keys()).extracting(ChangeSummary.RemovedKey::description)
        .containsExactly("id=4");
  }
}
