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

import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;

/**
 * What a sealed batch of row-level changes holds, for the tripwires a task checks when it commits.
 *
 * @param keys the keys the batch changes, each with one equality delete
 * @param lanes per source lane (a Kafka partition, or "" without source positions), the batch's
 *     sequence numbers; empty without a sequence field
 * @param updateBeforeDropped update-before images dropped (upsert mode)
 * @param removedKeys the keys the batch removes without having written them
 */
public record ChangeSummary(long keys, Map<String, Lane> lanes, long updateBeforeDropped, RemovedKeys removedKeys) {
  /**
   * One lane's sequence numbers in the batch.
   *
   * @param smallestKey the key the smallest one changed, for messages
   */
  public record Lane(long smallest, String smallestKey, long largest) {}

  /**
   * The keys a batch removes (deletes, or update-before images in changelog mode) that no change of
   * the same batch wrote.
   *
   * @param keySchema the key columns
   * @param specId the partition spec the keys' partitions are of
   * @param keys the first {@link #LIMIT} of them
   * @param total how many there are
   */
  public record RemovedKeys(Schema keySchema, int specId, List<RemovedKey> keys, long total) {
    /** The most a batch keeps for the tripwire: checking a key costs a pass over candidate files' bounds. */
    public static final int LIMIT = 1_000;
  }

  /**
   * One removed key.
   *
   * @param key its columns in Iceberg's internal representation (as files' bounds hold them)
   * @param partition the partition its row lies in, under the batch's spec
   * @param description "column=value, ..." for messages
   */
  public record RemovedKey(StructLike key, StructLike partition, String description) {}

  /**
   * What a split-sink descriptor carries of this summary to the committer, which runs the tripwires:
   * JSON of the key count, the update-before images dropped and the lanes. The removed keys stay
   * with the writer (the unseen-keys check is {@code IcebergBolt}'s).
   */
  public String encode() {
    com.fasterxml.jackson.databind.node.ObjectNode root = org.apache.iceberg.util.JsonUtil.mapper().createObjectNode();
    root.put("keys", keys);
    root.put("update-before-dropped", updateBeforeDropped);
    com.fasterxml.jackson.databind.node.ObjectNode byLane = root.putObject("lanes");
    lanes.forEach((name, lane) -> byLane.putObject(name)
        .put("smallest", lane.smallest()).put("smallest-key", lane.smallestKey()).put("largest", lane.largest()));
    return root.toString();
  }

  /**
   * Reads what {@link #encode} wrote, without removed keys.
   *
   * @throws IllegalArgumentException when {@code text} is not such a summary
   */
  public static ChangeSummary decode(String text) {
    try {
      com.fasterxml.jackson.databind.JsonNode root = org.apache.iceberg.util.JsonUtil.mapper().readTree(text);
      Map<String, Lane> lanes = new java.util.HashMap<>();
      root.get("lanes").fields().forEachRemaining(lane -> lanes.put(lane.getKey(), new Lane(
          lane.getValue().get("smallest").asLong(), lane.getValue().get("smallest-key").asText(),
          lane.getValue().get("largest").asLong())));
      return new ChangeSummary(root.get("keys").asLong(), Map.copyOf(lanes), root.get("update-before-dropped").asLong(), null);
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable change summary: " + text, e);
    }
  }
}
