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

package org.apache.storm.iceberg.bench;

import java.util.Arrays;
import java.util.function.Function;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.kernel.commit.CommitBranch;

/**
 * How long one small append takes to commit, as the sink commits it (its manifest work on the
 * committing thread) against Iceberg's default (its shared worker pool), on a HadoopCatalog table on
 * local disk. Each repetition commits {@code commits} appends of one data file to a fresh table per
 * variant, the variants alternating; the figure is the median commit's wall time. Arguments:
 * commits per repetition (default 300; past 100 Iceberg merges manifests), repetitions (default 3).
 */
public final class CommitLatency {
  private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private CommitLatency() {}

  public static void main(String[] args) throws Exception {
    int commits = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Results results = new Results();
    String params = "commits=" + commits;
    for (int rep = 1; rep <= reps; rep++) {
      results.add("CommitLatency", params, "iceberg-worker-pool", rep, medianMillis(commits, Table::newAppend), "ms");
      results.add("CommitLatency", params, "committing-thread", rep, medianMillis(commits, CommitBranch.MAIN::newAppend), "ms");
    }
  }

  private static double medianMillis(int commits, Function<Table, AppendFiles> newAppend) throws Exception {
    try (TempTables tables = new TempTables("commit-latency")) {
      Catalog catalog = CatalogUtil.buildIcebergCatalog("bench", tables.hadoop(), TempTables.hadoopConf());
      Table table = catalog.createTable(TableIdentifier.of("db", "t"), SCHEMA, PartitionSpec.unpartitioned());
      long[] nanos = new long[commits];
      for (int i = 0; i < commits; i++) {
        DataFile file = DataFiles.builder(table.spec()).withPath(table.location() + "/data/f" + i + ".parquet")
            .withFormat(FileFormat.PARQUET).withFileSizeInBytes(1_000).withRecordCount(10).build();
        long start = System.nanoTime();
        newAppend.apply(table).appendFile(file).commit();
        nanos[i] = System.nanoTime() - start;
      }
      Arrays.sort(nanos);
      return nanos[commits / 2] / 1e6;
    }
  }
}
