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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.junit.jupiter.api.Test;

/**
 * The JSON entries and descriptors carry their files whole: data files, and for row-level changes
 * their equality deletes, which only a reader that knows them may accept.
 */
class DataFilesCodecTest {
  static final PartitionSpec SPEC = PartitionSpec.unpartitioned();
  static final Map<Integer, PartitionSpec> SPECS = Map.of(SPEC.specId(), SPEC);

  static final DataFile DATA = DataFiles.builder(SPEC)
      .withPath("/t/data/a.parquet").withFormat(FileFormat.PARQUET).withFileSizeInBytes(100).withRecordCount(3).build();
  static final DeleteFile DELETES = FileMetadata.deleteFileBuilder(SPEC)
      .ofEqualityDeletes(1).withPath("/t/data/a-deletes.parquet").withFormat(FileFormat.PARQUET)
      .withFileSizeInBytes(50).withRecordCount(2).build();

  static DataFilesCodec.Entry entry(List<DeleteFile> deletes) {
    return new DataFilesCodec.Entry("batch-1", "db.accounts", "writer", 2, 42L, List.of(DATA), 40L, null, deletes);
  }

  @Test
  void anEntryWithEqualityDeletesKeepsThemAndIsWrittenAsVersion3() {
    String json = new String(DataFilesCodec.encode(entry(List.of(DELETES)), SPECS), StandardCharsets.UTF_8);
    assertThat(json).contains("\"version\":3");

    DataFilesCodec.Entry decoded = DataFilesCodec.decode(json.getBytes(StandardCharsets.UTF_8), "test", SPECS);
    assertThat(decoded.files()).extracting(DataFile::location).containsExactly("/t/data/a.parquet");
    assertThat(decoded.deleteFiles()).singleElement().satisfies(file -> {
      assertThat(file.location()).isEqualTo("/t/data/a-deletes.parquet");
      assertThat(file.equalityFieldIds()).containsExactly(1);
      assertThat(file.recordCount()).isEqualTo(2);
    });
  }

  /** A batch that streamed beyond its held keys also carries a deletion vector (v3) or a position-delete file (v2). */
  @Test
  void anEntryKeepsADeletionVectorAndAPositionDeleteFileWhole() {
    DeleteFile vector = FileMetadata.deleteFileBuilder(SPEC)
        .ofPositionDeletes().withPath("/t/data/b.puffin").withFormat(FileFormat.PUFFIN).withFileSizeInBytes(80)
        .withRecordCount(2).withReferencedDataFile("/t/data/a.parquet").withContentOffset(4).withContentSizeInBytes(40).build();
    DeleteFile positions = FileMetadata.deleteFileBuilder(SPEC)
        .ofPositionDeletes().withPath("/t/data/c.parquet").withFormat(FileFormat.PARQUET).withFileSizeInBytes(60)
        .withRecordCount(1).build();
    byte[] json = DataFilesCodec.encode(entry(List.of(DELETES, vector, positions)), SPECS);

    List<DeleteFile> decoded = DataFilesCodec.decode(json, "test", SPECS).deleteFiles();
    assertThat(decoded).hasSize(3);
    assertThat(decoded.get(1)).satisfies(file -> {
      assertThat(file.content()).isEqualTo(org.apache.iceberg.FileContent.POSITION_DELETES);
      assertThat(file.format()).isEqualTo(FileFormat.PUFFIN);
      assertThat(file.referencedDataFile()).isEqualTo("/t/data/a.parquet");
      assertThat(file.contentOffset()).isEqualTo(4);
      assertThat(file.contentSizeInBytes()).isEqualTo(40);
      assertThat(file.recordCount()).isEqualTo(2);
    });
    assertThat(decoded.get(2)).satisfies(file -> {
      assertThat(file.content()).isEqualTo(org.apache.iceberg.FileContent.POSITION_DELETES);
      assertThat(file.format()).isEqualTo(FileFormat.PARQUET);
      assertThat(file.location()).isEqualTo("/t/data/c.parquet");
    });
  }

  @Test
  void aSplitSinkDescriptorCarriesItsChangeSummaryForTheCommittersTripwires() {
    org.apache.storm.iceberg.kernel.change.ChangeSummary changes = new org.apache.storm.iceberg.kernel.change.ChangeSummary(
        2, Map.of("accounts/0", new org.apache.storm.iceberg.kernel.change.ChangeSummary.Lane(7, "id=3", 12)), 1, null);
    DataFilesCodec.Entry entry = entry(List.of(DELETES));
    String json = new String(DataFilesCodec.encode(new DataFilesCodec.Entry(entry.id(), entry.table(), entry.component(),
        entry.taskIndex(), entry.createdAtMillis(), entry.files(), entry.oldestTupleMillis(), null, entry.deleteFiles(),
        changes.encode(SPECS)), SPECS), StandardCharsets.UTF_8);

    DataFilesCodec.Entry decoded = DataFilesCodec.decode(json.getBytes(StandardCharsets.UTF_8), "test", SPECS);
    assertThat(org.apache.storm.iceberg.kernel.change.ChangeSummary.decode(decoded.changes(), SPECS)).isEqualTo(changes);
    assertThat(DataFilesCodec.decode(DataFilesCodec.encode(entry, SPECS), "test", SPECS).changes()).isNull();
  }

  /** The committer checks the keys a writer's batch removed without writing them: they travel typed, with their partitions. */
  @Test
  void aDescriptorCarriesTheKeysItsBatchRemovedWithTheirPartitions() {
    org.apache.iceberg.Schema keySchema = new org.apache.iceberg.Schema(
        org.apache.iceberg.types.Types.NestedField.required(1, "id", org.apache.iceberg.types.Types.LongType.get()),
        org.apache.iceberg.types.Types.NestedField.required(2, "region", org.apache.iceberg.types.Types.StringType.get()),
        org.apache.iceberg.types.Types.NestedField.required(3, "at", org.apache.iceberg.types.Types.TimestampType.withZone()));
    PartitionSpec spec = PartitionSpec.builderFor(keySchema).withSpecId(4).identity("region").bucket("id", 8).build();
    org.apache.iceberg.PartitionKey partition = new org.apache.iceberg.PartitionKey(spec, keySchema);
    org.apache.iceberg.data.GenericRecord key = org.apache.iceberg.data.GenericRecord.create(keySchema);
    key.set(0, 42L);
    key.set(1, "eu");
    key.set(2, 1_700_000_000_123_456L); // internal: microseconds
    partition.partition(key);
    org.apache.storm.iceberg.kernel.change.ChangeSummary.RemovedKeys removed =
        new org.apache.storm.iceberg.kernel.change.ChangeSummary.RemovedKeys(keySchema, 4, List.of(
            new org.apache.storm.iceberg.kernel.change.ChangeSummary.RemovedKey(key, partition.copy(), "id=42, region=eu")), 1_001);
    org.apache.storm.iceberg.kernel.change.ChangeSummary changes = new org.apache.storm.iceberg.kernel.change.ChangeSummary(
        1, Map.of(), 0, removed);

    org.apache.storm.iceberg.kernel.change.ChangeSummary.RemovedKeys decoded = org.apache.storm.iceberg.kernel.change.ChangeSummary
        .decode(changes.encode(Map.of(4, spec)), Map.of(4, spec)).removedKeys();
    assertThat(decoded.keySchema().sameSchema(keySchema)).isTrue();
    assertThat(decoded.specId()).isEqualTo(4);
    assertThat(decoded.total()).isEqualTo(1_001);
    assertThat(decoded.keys()).singleElement().satisfies(one -> {
      assertThat(one.description()).isEqualTo("id=42, region=eu");
      assertThat(List.of(one.key().get(0, Long.class), one.key().get(1, CharSequence.class).toString(), one.key().get(2, Long.class)))
          .containsExactly(42L, "eu", 1_700_000_000_123_456L);
      assertThat(List.of(one.partition().get(0, CharSequence.class).toString(), one.partition().get(1, Integer.class)))
          .containsExactly("eu", partition.get(1, Integer.class));
    });
  }

  @Test
  void aRoutingWritersDescriptorCarriesTheOffsetsRoutedElsewhereWithoutANewVersion() {
    DataFilesCodec.Entry routed = new DataFilesCodec.Entry("batch-1", "db.accounts", "writer", 2, 42L, List.of(DATA), 40L,
        "orders@id-1|0=3,7", List.of(), null, "orders@id-1|0=0-2,4-6");
    String json = new String(DataFilesCodec.encode(routed, SPECS), StandardCharsets.UTF_8);
    assertThat(json).contains("\"version\":2").contains("\"elsewhere-positions\":\"orders@id-1|0=0-2,4-6\"");
    DataFilesCodec.Entry decoded = DataFilesCodec.decode(json.getBytes(StandardCharsets.UTF_8), "test", SPECS);
    assertThat(decoded.positions()).isEqualTo("orders@id-1|0=3,7");
    assertThat(decoded.elsewhere()).isEqualTo("orders@id-1|0=0-2,4-6");
    // A descriptor of an earlier writer, or of one that does not route, has none.
    String earlier = new String(DataFilesCodec.encode(entry(List.of()), SPECS), StandardCharsets.UTF_8);
    assertThat(earlier).doesNotContain("elsewhere");
    assertThat(DataFilesCodec.decode(earlier.getBytes(StandardCharsets.UTF_8), "test", SPECS).elsewhere()).isNull();
  }

  @Test
  void anEntryWithoutDeletesStaysVersion2SoThatEarlierReadersStillReadIt() {
    String json = new String(DataFilesCodec.encode(entry(List.of()), SPECS), StandardCharsets.UTF_8);
    assertThat(json).contains("\"version\":2").doesNotContain("delete-files");
    assertThat(DataFilesCodec.decode(json.getBytes(StandardCharsets.UTF_8), "test", SPECS).deleteFiles()).isEmpty();
  }

  @Test
  void aDeleteFileWhereADataFileBelongsIsRefusedAsCorrupt() {
    String json = new String(DataFilesCodec.encode(entry(List.of(DELETES)), SPECS), StandardCharsets.UTF_8);
    String swapped = json.replace("\"files\":[", "\"files\":[" + deleteFileJson(json) + ",");
    assertThatThrownBy(() -> DataFilesCodec.decode(swapped.getBytes(StandardCharsets.UTF_8), "wal/entry", SPECS))
        .hasMessage("unrecognized version 3 or corrupt entry at wal/entry");
  }

  private static String deleteFileJson(String json) {
    int start = json.indexOf('[', json.indexOf("\"delete-files\"")) + 1;
    int end = json.lastIndexOf(']');
    return json.substring(start, end);
  }
}
