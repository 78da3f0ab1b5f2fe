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

import static org.apache.storm.iceberg.OptionsInternals.settings;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.task.SinkTask;
import org.apache.storm.iceberg.kernel.task.SinkTasks;
import org.apache.storm.iceberg.testing.FieldPositions;
import org.apache.storm.iceberg.testing.RecordingCollector;
import org.apache.storm.iceberg.testing.TestTables;
import org.apache.storm.iceberg.testing.Tuples;

/**
 * A table in a HadoopCatalog on a temp dir (or another catalog) as a sink that commits too often leaves it: 30 records
 * in six commits of five, by a real sink task reading Kafka-style positions, so its newest commit is
 * a token that expiry must keep.
 */
record MaintainedTable(Map<String, String> catalogProperties, Table table) {
  static final String NAME = "db.events";
  static final int RECORDS = 30;

  static MaintainedTable create(Path warehouse) {
    return create(Map.of("type", "hadoop", "warehouse", warehouse.toUri().toString()));
  }

  /** The table in the catalog of {@code properties}, named {@code maintain}. */
  static MaintainedTable create(Map<String, String> properties) {
    Table table = CatalogUtil.buildIcebergCatalog("maintain", properties, new org.apache.hadoop.conf.Configuration())
        .createTable(TableIdentifier.parse(NAME), TestTables.SCHEMA, PartitionSpec.unpartitioned());
    IcebergOptions options = new IcebergOptions.Builder().withCatalogName("maintain").withCatalogProperties(properties)
        .withTable(NAME).withCommitIntervalRecords(5).withSourcePositions(new FieldPositions()).build();
    SinkTask sink = SinkTasks.open(settings(options), new TaskIdentity("events", "iceberg", 7, 0, 1), new RecordingCollector().collector(),
        new AtomicLong(1_000_000)::get);
    Tuples tuples = new Tuples("id", "region", "event_time", "payload", "topic", "partition", "offset");
    for (long offset = 0; offset < RECORDS; offset++) {
      sink.execute(tuples.tuple(offset, "eu", null, "p" + offset, "events", 0, offset));
    }
    sink.close();
    FieldPositions.IDENTITIES.clear();
    table.refresh();
    return new MaintainedTable(properties, table);
  }

  /** The command line naming this table, then {@code more}; a command name first in {@code more} goes first. */
  String[] args(String... more) {
    List<String> args = new ArrayList<>();
    int from = 0;
    if (more.length > 0 && !more[0].startsWith("--")) {
      args.add(more[0]);
      from = 1;
    }
    new java.util.TreeMap<>(catalogProperties).forEach((key, value) -> args.addAll(List.of("--catalog", key + "=" + value)));
    args.addAll(List.of("--catalog-name", "maintain", "--table", NAME));
    args.addAll(List.of(more).subList(from, more.length));
    return args.toArray(String[]::new);
  }

  List<Long> ids() {
    table.refresh();
    List<Long> ids = new ArrayList<>(TestTables.ids(table));
    ids.sort(null);
    return ids;
  }
}
