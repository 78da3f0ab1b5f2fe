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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SingleValueParser;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;

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

    /** These keys and {@code other}'s, when both are of one spec; these alone otherwise. */
    RemovedKeys join(RemovedKeys other) {
      if (other == null || other.specId() != specId || !other.keySchema().sameSchema(keySchema)) {
        return this;
      }
      List<RemovedKey> joined = new ArrayList<>(keys);
      other.keys().stream().limit(Math.max(0, LIMIT - joined.size())).forEach(joined::add);
      return new RemovedKeys(keySchema, specId, List.copyOf(joined), total + other.total());
    }

    private JsonNode toJson(Types.StructType partitionType) throws IOException {
      ObjectNode json = JsonUtil.mapper().createObjectNode();
      json.set("key-schema", JsonUtil.mapper().readTree(SchemaParser.toJson(keySchema)));
      json.put("spec-id", specId);
      json.put("total", total);
      ArrayNode array = json.putArray("keys");
      for (RemovedKey key : keys) {
        array.addObject()
            .put("description", key.description())
            .<ObjectNode>set("key", JsonUtil.mapper().readTree(SingleValueParser.toJson(keySchema.asStruct(), key.key())))
            .set("partition", JsonUtil.mapper().readTree(SingleValueParser.toJson(partitionType, key.partition())));
      }
      return json;
    }

    private static RemovedKeys fromJson(JsonNode json, Map<Integer, PartitionSpec> specs) {
      Schema keySchema = SchemaParser.fromJson(json.get("key-schema"));
      int specId = json.get("spec-id").asInt();
      PartitionSpec spec = specs.get(specId);
      if (spec == null) {
        throw new IllegalArgumentException("the table has no partition spec " + specId);
      }
      List<RemovedKey> keys = new ArrayList<>();
      for (JsonNode key : json.get("keys")) {
        keys.add(new RemovedKey(
            (StructLike) SingleValueParser.fromJson(keySchema.asStruct(), key.get("key")),
            (StructLike) SingleValueParser.fromJson(spec.partitionType(), key.get("partition")),
            key.get("description").asText()));
      }
      return new RemovedKeys(keySchema, specId, List.copyOf(keys), json.get("total").asLong());
    }
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
   * The summaries of batches that commit together (a Trident transaction's partitions) as one: keys
   * and dropped images added, each lane's smallest and largest kept, removed keys joined up to
   * {@link RemovedKeys#LIMIT} (those of the first batch's spec; a batch of another spec adds none).
   *
   * @return null when {@code batches} is empty
   */
  public static ChangeSummary combine(List<ChangeSummary> batches) {
    if (batches.size() <= 1) {
      return batches.isEmpty() ? null : batches.get(0);
    }
    long keys = 0;
    long dropped = 0;
    Map<String, Lane> lanes = new HashMap<>();
    RemovedKeys removed = null;
    for (ChangeSummary batch : batches) {
      keys += batch.keys();
      dropped += batch.updateBeforeDropped();
      batch.lanes().forEach((name, lane) -> lanes.merge(name, lane, (a, b) -> new Lane(
          Math.min(a.smallest(), b.smallest()), a.smallest() <= b.smallest() ? a.smallestKey() : b.smallestKey(),
          Math.max(a.largest(), b.largest()))));
      removed = removed == null ? batch.removedKeys() : removed.join(batch.removedKeys());
    }
    return new ChangeSummary(keys, Map.copyOf(lanes), dropped, removed);
  }

  /**
   * What a split-sink descriptor carries of this summary to the committer, which runs the tripwires:
   * JSON of the key count, the update-before images dropped, the lanes and the removed keys (their
   * key and partition values as Iceberg's single-value JSON, typed by the key schema and by the
   * partition spec {@code specs} holds under the keys' spec id).
   */
  public String encode(Map<Integer, PartitionSpec> specs) {
    ObjectNode root = JsonUtil.mapper().createObjectNode();
    root.put("keys", keys);
    root.put("update-before-dropped", updateBeforeDropped);
    ObjectNode byLane = root.putObject("lanes");
    lanes.forEach((name, lane) -> byLane.putObject(name)
        .put("smallest", lane.smallest()).put("smallest-key", lane.smallestKey()).put("largest", lane.largest()));
    PartitionSpec spec = removedKeys == null ? null : specs.get(removedKeys.specId());
    if (spec != null && removedKeys.total() > 0) {
      try {
        root.set("removed-keys", removedKeys.toJson(spec.partitionType()));
      } catch (IOException e) {
        throw new UncheckedIOException(e); // parsing JSON that Iceberg's own parsers just wrote
      }
    }
    return root.toString();
  }

  /**
   * Reads what {@link #encode} wrote; {@code specs} must hold the removed keys' spec.
   *
   * @throws IllegalArgumentException when {@code text} is not such a summary
   */
  public static ChangeSummary decode(String text, Map<Integer, PartitionSpec> specs) {
    try {
      JsonNode root = JsonUtil.mapper().readTree(text);
      Map<String, Lane> lanes = new HashMap<>();
      root.get("lanes").fields().forEachRemaining(lane -> lanes.put(lane.getKey(), new Lane(
          lane.getValue().get("smallest").asLong(), lane.getValue().get("smallest-key").asText(),
          lane.getValue().get("largest").asLong())));
      JsonNode removed = root.get("removed-keys");
      return new ChangeSummary(root.get("keys").asLong(), Map.copyOf(lanes), root.get("update-before-dropped").asLong(),
          removed == null ? null : RemovedKeys.fromJson(removed, specs));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable change summary: " + text, e);
    }
  }
}
