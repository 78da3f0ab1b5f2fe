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

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The unseen-keys check against a file's bounds, for each kind of key column: a key at the file's
 * bound could be held (never counted), one just beyond it could not. Key values are in Iceberg's
 * internal form, as the batch holds them (a timestamp in micro- or nanoseconds, a date in days).
 */
class UnseenKeysTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "timestamp, 1700000000000000, 1700000000000001",
      "timestamp_ns, 1700000000000000000, 1700000000000000001",
      "date, 19000, 19001",
      "string, abc, abd",
      "long, 42, 43",
  })
  void aKeyWithinAFilesBoundsIsHeldAndOneBeyondThemIsUnseen(String typeName, String inside, String beyond) {
    Type type = switch (typeName) {
      case "timestamp" -> Types.TimestampType.withZone();
      case "timestamp_ns" -> Types.TimestampNanoType.withZone();
      case "date" -> Types.DateType.get();
      case "string" -> Types.StringType.get();
      default -> Types.LongType.get();
    };
    Schema schema = new Schema(Types.NestedField.required(1, "k", type), Types.NestedField.optional(2, "v", Types.StringType.get()));
    Table table = new HadoopTables().create(schema, PartitionSpec.unpartitioned(), Map.of("format-version", "3"),
        dir.resolve(typeName).toString());
    ByteBuffer bound = Conversions.toByteBuffer(type, value(typeName, inside));
    DataFile file = DataFiles.builder(table.spec()).withPath(dir.resolve("f.parquet").toString()).withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(10).withRecordCount(1)
        .withMetrics(new Metrics(1L, null, Map.of(1, 1L), Map.of(1, 0L), null, Map.of(1, bound), Map.of(1, bound))).build();
    table.newAppend().appendFile(file).commit();
    UnseenKeys.Before before = new UnseenKeys.Before(table.currentSnapshot(), table.io(), table.specs(), table.schema());

    assertThat(UnseenKeys.unseen(before, removed(schema, table, value(typeName, inside)))).as("at the bound").isEmpty();
    assertThat(UnseenKeys.unseen(before, removed(schema, table, value(typeName, beyond)))).as("beyond the bound").hasSize(1);
  }

  private static Object value(String typeName, String text) {
    return switch (typeName) {
      case "date" -> Integer.parseInt(text);
      case "string" -> text;
      default -> Long.parseLong(text);
    };
  }

  private static ChangeSummary.RemovedKeys removed(Schema schema, Table table, Object value) {
    Schema keySchema = schema.select("k");
    Record key = GenericRecord.create(keySchema);
    key.set(0, value);
    return new ChangeSummary.RemovedKeys(keySchema, table.spec().specId(),
        List.of(new ChangeSummary.RemovedKey(key, GenericRecord.create(new Schema()), "k=" + value)), 1);
  }
}
