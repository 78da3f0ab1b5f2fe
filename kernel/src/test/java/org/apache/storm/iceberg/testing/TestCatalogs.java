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

package org.apache.storm.iceberg.testing;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/** Catalog properties for the real catalogs the tests run on. */
public final class TestCatalogs {
  private TestCatalogs() {}

  /** A HadoopCatalog whose warehouse is under {@code dir}. */
  public static Map<String, String> hadoop(Path dir) {
    Map<String, String> properties = new HashMap<>();
    properties.put("type", "hadoop");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return properties;
  }

  /** A JdbcCatalog on a SQLite file under {@code dir}. */
  public static Map<String, String> jdbcSqlite(Path dir) {
    Map<String, String> properties = new HashMap<>();
    properties.put("type", "jdbc");
    properties.put("uri", "jdbc:sqlite:" + dir.resolve("catalog.db").toAbsolutePath());
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return properties;
  }

  /**
   * A JdbcCatalog on a SQLite file under {@code dir} whose tables live on S3, written through
   * {@code S3FileIO} to the test JVM's {@link S3MockServer}, each call in a warehouse of its own.
   */
  public static Map<String, String> jdbcSqliteOnS3(Path dir) {
    S3MockServer s3 = S3MockServer.shared();
    Map<String, String> properties = jdbcSqlite(dir);
    properties.putAll(s3.fileIoProperties());
    properties.put("warehouse", s3.newWarehouse());
    return properties;
  }

  /** The catalogs a test can run on, tables on the local file system or on S3. */
  public enum Kind {
    HADOOP,
    JDBC_SQLITE,
    JDBC_SQLITE_ON_S3,
    REST_ON_S3;

    public boolean onS3() {
      return this == JDBC_SQLITE_ON_S3 || this == REST_ON_S3;
    }
  }

  /** A catalog of {@code kind} started under {@code dir}: its client properties, and the REST server it needs, if any. */
  public record Running(Map<String, String> properties, RestCatalogServer rest) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      if (rest != null) {
        rest.close();
      }
    }
  }

  public static Running start(Kind kind, Path dir) throws Exception {
    return switch (kind) {
      case HADOOP -> new Running(hadoop(dir), null);
      case JDBC_SQLITE -> new Running(jdbcSqlite(dir), null);
      case JDBC_SQLITE_ON_S3 -> new Running(jdbcSqliteOnS3(dir), null);
      case REST_ON_S3 -> {
        RestCatalogServer rest = RestCatalogServer.onS3(dir.resolve("rest"));
        yield new Running(rest.clientProperties(), rest);
      }
    };
  }

  public static Catalog load(Map<String, String> properties) {
    return CatalogUtil.buildIcebergCatalog("test", properties, new Configuration());
  }
}
