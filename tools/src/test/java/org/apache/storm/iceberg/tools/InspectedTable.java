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

package org.apache.storm.iceberg.tools;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.kernel.commit.DataFilesCodec;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * A real table in a HadoopCatalog on a temp dir, as storm-iceberg leaves it: commits carrying the
 * sink's snapshot-summary keys (small files, as a sink that commits too often writes them), and the
 * pending WAL entry of a task that crashed mid-commit, in the default {@code table-fileio} WAL store.
 */
record InspectedTable(Map<String, String> catalogProperties, Table table, WalStore wal, String lastCommitId, DataFile pendingFile) {
  static final String NAME = "db.events";
  static final String PENDING_COMMIT = "crashed-commit";
  static final long PENDING_CREATED_AT_MILLIS = 1_000L;

  static InspectedTable create(Path warehouse) {
    Map<String, String> properties = Map.of("type", "hadoop", "warehouse", warehouse.toUri().toString());
    Table table = CatalogUtil.buildIcebergCatalog("inspect", properties, new org.apache.hadoop.conf.Configuration())
        .createTable(TableIdentifier.parse(NAME), new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
            PartitionSpec.unpartitioned());
    for (int commit = 1; commit <= 2; commit++) {
      AppendFiles append = table.newAppend().appendFile(dataFile(table, "committed-" + commit));
      append.set("storm.iceberg.commit-id", "commit-" + commit);
      append.set("storm.iceberg.component", "iceberg");
      append.set("storm.iceberg.task-index", "0");
      append.commit();
    }
    WalStore wal = ProviderRegistry.find(WalStoreFactory.class, "table-fileio", InspectedTable.class.getClassLoader()).create(Map.of());
    DataFile pending = dataFile(table, "orphan");
    wal.put(new WalScope(table, "default", "events-topology", "iceberg", 1), PENDING_COMMIT,
        DataFilesCodec.encode(new DataFilesCodec.Entry(PENDING_COMMIT, table.name(), "iceberg", 1, PENDING_CREATED_AT_MILLIS,
            List.of(pending)), table.specs()));
    return new InspectedTable(properties, table, wal, "commit-2", pending);
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(4_096)
        .withRecordCount(100)
        .build();
  }
}
