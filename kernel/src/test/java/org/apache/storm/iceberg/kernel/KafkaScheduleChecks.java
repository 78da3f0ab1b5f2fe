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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.storm.iceberg.kernel.KafkaSpoutModel.Position;

/**
 * What a user of the Kafka schedules checks in the table, reporting the first violation with the
 * schedule's seed: no record the spout was told is acked is missing; no record is in the table
 * twice; and the newest commit's {@code storm.iceberg.source-positions} names exactly the offsets
 * the table holds. The summary is read with a parser of its own, not the sink's.
 */
final class KafkaScheduleChecks {
  static final String POSITIONS_KEY = "storm.iceberg.source-positions";

  private KafkaScheduleChecks() {}

  /**
   * The checks that hold at any moment: nothing acked lost, nothing twice, the summary exact.
   *
   * @return the table's rows' payloads by position
   */
  static Map<Position, List<String>> holdNow(long seed, String when, Table table, KafkaSpoutModel spout) {
    String schedule = "schedule " + seed + " (" + when + "): ";
    Map<Position, List<String>> rows = rows(schedule, table, spout);
    rows.forEach((position, payloads) -> {
      if (payloads.size() > 1) {
        throw new AssertionError(schedule + "a duplicate: " + position + " is in the table " + payloads.size()
            + " times, as rows " + payloads);
      }
    });
    for (Position position : sorted(spout.everAcked)) {
      if (!rows.containsKey(position)) {
        throw new AssertionError(schedule + "a loss: " + position + " was acked but is not in the table");
      }
    }
    Set<Position> recorded = newestPositions(schedule, table);
    if (!recorded.equals(rows.keySet())) {
      Set<Position> unrecorded = sorted(rows.keySet());
      unrecorded.removeAll(recorded);
      Set<Position> phantom = sorted(recorded);
      phantom.removeAll(rows.keySet());
      throw new AssertionError(schedule + "the newest commit's " + POSITIONS_KEY + " is not the table's offsets: "
          + "in the table but not recorded " + unrecorded + ", recorded but not in the table " + phantom);
    }
    return rows;
  }

  /** At the end, after every replay: also, every record of the topic is in the table. */
  static void holdAtEnd(long seed, Table table, KafkaSpoutModel spout) {
    Map<Position, List<String>> rows = holdNow(seed, "at the end", table, spout);
    if (!spout.done()) {
      throw new AssertionError("schedule " + seed + ": after " + KafkaSchedules.MAX_STEPS + " steps the spout was still"
          + " not told these records are acked: " + spout.unacked());
    }
    for (Position position : spout.records()) {
      if (!rows.containsKey(position)) {
        throw new AssertionError("schedule " + seed + ": a loss: " + position + " is not in the table");
      }
    }
  }

  private static Map<Position, List<String>> rows(String schedule, Table table, KafkaSpoutModel spout) {
    table.refresh();
    Map<Position, List<String>> rows = new HashMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record row : records) {
        rows.computeIfAbsent(spout.positionOfId((Long) row.getField("id")), p -> new ArrayList<>())
            .add((String) row.getField("payload"));
      }
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(schedule + "the table does not read cleanly", e instanceof IOException io ? new UncheckedIOException(io) : e);
    }
    return rows;
  }

  /** The positions the current snapshot's summary records: {@code topic@id|0=0-4,7|1=3}. */
  private static Set<Position> newestPositions(String schedule, Table table) {
    Snapshot current = table.currentSnapshot();
    Set<Position> positions = new HashSet<>();
    if (current == null) {
      return positions;
    }
    String text = current.summary().get(POSITIONS_KEY);
    if (text == null) {
      throw new AssertionError(schedule + "the newest snapshot " + current.snapshotId() + " has no " + POSITIONS_KEY);
    }
    for (String source : text.split(";")) {
      String[] parts = source.split("\\|");
      if (!parts[0].startsWith(KafkaSpoutModel.TOPIC + "@")) {
        throw new AssertionError(schedule + "the summary names a source other than " + KafkaSpoutModel.TOPIC + ": " + text);
      }
      for (int i = 1; i < parts.length; i++) {
        String[] partitionAndRanges = parts[i].split("=");
        int partition = Integer.parseInt(partitionAndRanges[0]);
        for (String range : partitionAndRanges[1].split(",")) {
          String[] bounds = range.split("-");
          long from = Long.parseLong(bounds[0]);
          long to = bounds.length == 1 ? from : Long.parseLong(bounds[1]);
          for (long offset = from; offset <= to; offset++) {
            positions.add(new Position(partition, offset));
          }
        }
      }
    }
    return positions;
  }

  private static Set<Position> sorted(Set<Position> positions) {
    Set<Position> sorted = new TreeSet<>(Comparator.comparingInt(Position::partition).thenComparingLong(Position::offset));
    sorted.addAll(positions);
    return sorted;
  }
}
