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

package org.apache.storm.iceberg.kernel.table;

import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns at prepare when a committing component's tasks may commit to a {@code HadoopCatalog} table
 * from several processes on a file system that cannot make those commits atomic.
 *
 * <p>A HadoopCatalog commits by renaming a new metadata file into place, guarded by a lock that by
 * default lives in one JVM. Only HDFS renames atomically across processes; on a local or NFS path
 * and on object stores ({@code s3://}, {@code s3a://}, {@code gs://}, {@code abfs://}, …) two
 * processes can both commit the same version, and the one renamed first is overwritten: its
 * snapshot, and the rows its acked tuples carried, leave the table. The race needs several
 * committing tasks ({@code IcebergBolt}'s tasks; the split sink's committer, normally one task)
 * in several workers, so a single-worker topology stays quiet, as does a catalog given a {@code
 * lock-impl} (a lock every worker shares).
 */
public final class HadoopCatalogWarning {
  private static final Logger LOG = LoggerFactory.getLogger(HadoopCatalogWarning.class);
  private static final String HADOOP_CATALOG = "org.apache.iceberg.hadoop.HadoopCatalog";

  private HadoopCatalogWarning() {}

  /** Logs the warning once for this task, when its commits may race. */
  public static void warnIfCommitsMayRace(Catalog catalog, Table table, Map<String, String> catalogProperties, TaskEnvironment env) {
    warning(catalog, table.name(), table.location(), catalogProperties, env.task(), env.topologyConfig())
        .ifPresent(LOG::warn);
  }

  /** The warning for a table at {@code location}, or empty when its commits cannot race. */
  public static Optional<String> warning(
      Catalog catalog, String table, String location, Map<String, String> catalogProperties, TaskIdentity task,
      Map<String, Object> conf) {
    int workers = ObjectReader.getInt(conf.get(Config.TOPOLOGY_WORKERS), 1);
    if (task.componentTasks() <= 1 || workers <= 1 || !isHadoopCatalog(catalog)
        || catalogProperties.containsKey(CatalogProperties.LOCK_IMPL)) {
      return Optional.empty();
    }
    String scheme = HadoopScheme.of(catalog, location);
    if ("hdfs".equalsIgnoreCase(scheme)) {
      return Optional.empty();
    }
    return Optional.of(
        "Table " + table + " is in a HadoopCatalog on " + scheme + ":, not HDFS, and the " + task.componentTasks()
            + " tasks of component '" + task.component() + "' may commit to it from different workers"
            + " (topology.workers " + workers + "). This file system has no atomic commit across processes: two"
            + " commits at once can both succeed, and one of them is overwritten, with the rows of tuples already"
            + " acked. Use a catalog that commits atomically (JDBC, REST, Hive, Glue or Nessie), or commit from one"
            + " task (IcebergWriterBolts feeding one IcebergCommitterBolt), or keep the table on HDFS");
  }

  /** By class name, so a worker without Hadoop never loads Hadoop's classes here. */
  private static boolean isHadoopCatalog(Catalog catalog) {
    for (Class<?> type = catalog.getClass(); type != null; type = type.getSuperclass()) {
      if (type.getName().equals(HADOOP_CATALOG)) {
        return true;
      }
    }
    return false;
  }

  /** Touches Hadoop's classes; reached only for a HadoopCatalog, which brings them. */
  private static final class HadoopScheme {
    /** The scheme of the file system {@code location} is on; a bare path is on {@code fs.defaultFS}. */
    static String of(Catalog catalog, String location) {
      String scheme = new org.apache.hadoop.fs.Path(location).toUri().getScheme();
      if (scheme != null) {
        return scheme;
      }
      org.apache.hadoop.conf.Configuration conf = ((org.apache.iceberg.hadoop.HadoopCatalog) catalog).getConf();
      return org.apache.hadoop.fs.FileSystem.getDefaultUri(conf != null ? conf : new org.apache.hadoop.conf.Configuration())
          .getScheme();
    }
  }
}
