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
    KeyedChanges changes = new KeyedChanges(SCHEMA, key, true);
    OffsetDateTime utc = OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 0, ZoneOffset.UTC);

    changes.put(new ChangeRow(ChangeOp.INSERT, null, row(utc, "first")), null);
    changes.put(new ChangeRow(ChangeOp.UPDATE_AFTER, null, row(utc.withOffsetSameInstant(ZoneOffset.ofHours(2)), "second")), null);

    assertThat(changes.finals()).as("one key: a later change of it replaces the earlier in the batch").hasSize(1);
    assertThat(changes.finals().iterator().next().row().getField("v")).isEqualTo("second");
  }

  /** The unseen-keys tripwire looks only at keys the batch removed without writing them, in any order. */
  @Test
  void onlyKeysTheBatchRemovedWithoutWritingThemAreReportedAsRemoved() {
    ChangeKey key = new ChangeKey(new int[] {2}, TypeUtil.select(SCHEMA, Set.of(2)));
    KeyedChanges changes = new KeyedChanges(SCHEMA, key, false);
    OffsetDateTime at = OffsetDateTime.of(2026, 11, 1, 10, 0, 0, 0, ZoneOffset.UTC);
    changes.put(new ChangeRow(ChangeOp.DELETE, 1L, row(at, "deleted only")), null);
    changes.put(new ChangeRow(ChangeOp.DELETE, 2L, row(at, "deleted, then written")), null);
    changes.put(new ChangeRow(ChangeOp.INSERT, 3L, row(at, "deleted, then written")), null);
    changes.put(new ChangeRow(ChangeOp.INSERT, 4L, row(at, "written, then deleted")), null);
    changes.put(new ChangeRow(ChangeOp.DELETE, 5L, row(at, "written, then deleted")), null);
    changes.put(new ChangeRow(ChangeOp.UPDATE_BEFORE, 6L, row(at, "deleted twice")), null);
    changes.put(new ChangeRow(ChangeOp.DELETE, 7L, row(at, "deleted twice")), null);

    ChangeSummary.RemovedKeys removed = changes.summary(0).removedKeys();
    assertThat(removed.keys()).extracting(ChangeSummary.RemovedKey::description)
        .containsExactly("v=deleted only", "v=deleted twice");
    assertThat(removed.total()).isEqualTo(2);

    KeyedChanges upserts = new KeyedChanges(SCHEMA, key, true);
    upserts.put(new ChangeRow(ChangeOp.INSERT, 1L, row(at, "a")), null);
    assertThat(upserts.summary(0).removedKeys().total()).as("nothing removed: no pass over the keys").isZero();
  }
}
