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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.storm.iceberg.bench.rows.LocalFileSystem;

/** Catalogs on local disk under a temporary directory, deleted afterwards. */
final class TempTables implements AutoCloseable {
  final Path dir;

  TempTables(String prefix) {
    try {
      dir = Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A HadoopCatalog warehouse under this directory. */
  Map<String, String> hadoop() {
    Map<String, String> properties = new HashMap<>();
    properties.put("type", "hadoop");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return properties;
  }

  /** The Hadoop configuration entries every contender gets: see {@link LocalFileSystem}. */
  static Map<String, String> hadoopConfiguration() {
    return LocalFileSystem.hadoopConfiguration();
  }

  /** A Hadoop configuration with {@link #hadoopConfiguration()}'s entries. */
  static org.apache.hadoop.conf.Configuration hadoopConf() {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
    hadoopConfiguration().forEach(conf::set);
    return conf;
  }

  /** A JdbcCatalog on a SQLite file under this directory, through {@code catalogImpl}. */
  Map<String, String> jdbcSqlite(String catalogImpl) {
    Map<String, String> properties = new HashMap<>();
    properties.put("catalog-impl", catalogImpl);
    properties.put("uri", "jdbc:sqlite:" + dir.resolve("catalog.db").toAbsolutePath());
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return properties;
  }

  @Override
  public void close() {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
