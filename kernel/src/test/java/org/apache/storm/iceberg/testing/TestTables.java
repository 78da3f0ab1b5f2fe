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

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/** The events table the tests write, and what a user would read back from it. */
public final class TestTables {
  public static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "region", Types.StringType.get()),
          optional(3, "event_time", Types.TimestampType.withZone()),
          optional(4, "payload", Types.StringType.get()));

  public static final PartitionSpec REGION_DAY =
      PartitionSpec.builderFor(SCHEMA).identity("region").day("event_time").build();

  public static final String[] FIELDS = {"id", "region", "event_time", "payload"};

  private TestTables() {}

  public static List<Record> rows(Table table) {
    table.refresh();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      List<Record> rows = new ArrayList<>();
      records.forEach(r -> rows.add(r.copy()));
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The ids in snapshot {@code snapshotId}, sorted. */
  public static List<Long> ids(Table table, long snapshotId) {
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).useSnapshot(snapshotId).build()) {
      List<Long> ids = new ArrayList<>();
      records.forEach(r -> ids.add((Long) r.getField("id")));
      ids.sort(null);
      return ids;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The ids at the head of {@code branch} ({@code main} included), sorted; none when it does not exist. */
  public static List<Long> ids(Table table, String branch) {
    table.refresh();
    Snapshot head = table.snapshot(branch);
    return head == null ? List.of() : ids(table, head.snapshotId());
  }

  public static List<Long> ids(Table table) {
    return rows(table).stream().map(r -> (Long) r.getField("id")).sorted().collect(Collectors.toList());
  }

  /**
   * Asserts that ids {@code 0..count-1} are each in the table, and that an id is there more than
   * once only if the spout replayed it ({@code replayed}: every id it saw failed or timed out).
   * Counts every row: a duplicate is never hidden by a distinct().
   */
  public static void assertEveryIdOnceUnlessReplayed(Table table, long count, java.util.Set<Long> replayed) {
    java.util.Map<Long, Long> copies =
        ids(table).stream().collect(Collectors.groupingBy(id -> id, java.util.TreeMap::new, Collectors.counting()));
    org.assertj.core.api.Assertions.assertThat(copies.keySet())
        .as("every id in the table")
        .containsExactlyElementsOf(java.util.stream.LongStream.range(0, count).boxed().collect(Collectors.toList()));
    java.util.Map<Long, Long> duplicated = new java.util.TreeMap<>();
    copies.forEach((id, n) -> {
      if (n > 1 && !replayed.contains(id)) {
        duplicated.put(id, n);
      }
    });
    org.assertj.core.api.Assertions.assertThat(duplicated).as("ids in the table more than once that the spout never replayed").isEmpty();
  }

  public static List<Snapshot> snapshots(Table table) {
    table.refresh();
    return StreamSupport.stream(table.snapshots().spliterator(), false).collect(Collectors.toList());
  }

  /**
   * The locations of the WAL entries left anywhere under the table, listed through the table's own
   * FileIO by prefix: works wherever the table lives, on the local file system or on S3.
   */
  public static List<String> walEntryLocations(Table table) {
    String base = table.location().endsWith("/") ? table.location() : table.location() + "/";
    List<String> locations = new ArrayList<>();
    try {
      ((org.apache.iceberg.io.SupportsPrefixOperations) table.io()).listPrefix(base + "metadata/_storm_wal/")
          .forEach(file -> {
            if (file.location().endsWith(".json")) {
              locations.add(file.location());
            }
          });
    } catch (org.apache.iceberg.exceptions.NotFoundException e) {
      return List.of();
    } catch (UncheckedIOException e) {
      if (e.getCause() instanceof java.io.FileNotFoundException) {
        return List.of();
      }
      throw e;
    }
    return locations;
  }

  /** The WAL entries left anywhere under the table, read straight from the local file system. */
  public static List<java.nio.file.Path> walEntries(Table table) {
    String location = table.location();
    if (location.contains("://") && !location.startsWith("file:")) {
      throw new IllegalArgumentException("table " + table.name() + " is not on the local file system (" + location
          + "); use walEntryLocations");
    }
    java.nio.file.Path root =
        location.startsWith("file:")
            ? java.nio.file.Paths.get(java.net.URI.create(location.replace("file:///", "file:/")))
            : java.nio.file.Paths.get(location);
    java.nio.file.Path wal = root.resolve("metadata/_storm_wal");
    if (!java.nio.file.Files.exists(wal)) {
      return List.of();
    }
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(wal)) {
      return files
          .filter(java.nio.file.Files::isRegularFile)
          .filter(p -> p.getFileName().toString().endsWith(".json"))
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
