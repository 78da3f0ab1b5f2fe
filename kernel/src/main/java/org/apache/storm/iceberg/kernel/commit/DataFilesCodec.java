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

package org.apache.storm.iceberg.kernel.commit;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.util.JsonUtil;

/**
 * The versioned JSON the kernel persists or sends about a set of data files (and, for row-level
 * changes, their equality-delete files): a WAL entry, a split-sink descriptor or a Trident
 * descriptor. It carries a format version, an id (the commit id of a WAL entry, the batch id of a
 * descriptor), the table, the component and task index that wrote it, when, and each file as
 * {@link ContentFileParser} writes it (spec id, partition data and column metrics included).
 *
 * <p>Decoding rejects an unknown version or an unreadable payload with "unrecognized version N or
 * corrupt entry at LOCATION", and a file whose partition spec the table does not know with {@link
 * UnknownSpecException}.
 */
public final class DataFilesCodec {
  /** Version 2 adds {@code oldest-tuple-ms}; version 1 entries are still read, taking it as {@code created-at-ms}. */
  public static final int VERSION = 2;
  /**
   * Version 3 adds {@code delete-files} and, in a split-sink descriptor, {@code changes}. Only an
   * entry with delete files is written as version 3, so that an older reader refuses it rather than
   * commit its rows without their deletes.
   */
  public static final int VERSION_WITH_DELETES = 3;

  /**
   * A set of data files and where they came from.
   *
   * @param id commit id (WAL entry) or batch id (descriptor)
   * @param table the table's name
   * @param component the component of the task that wrote the entry
   * @param taskIndex that task's index
   * @param createdAtMillis when the entry was written
   * @param files the data files
   * @param oldestTupleMillis when the oldest tuple whose record the files hold reached its task
   * @param positions the source positions whose records the files hold ({@code Positions#encode}),
   *     or null for none; a split-sink descriptor carries them to the committer
   * @param deleteFiles the delete files committed with the data files (row-level changes): equality
   *     deletes, and position-delete files or deletion vectors of a batch that streamed
   * @param changes what a split-sink descriptor's batch of row-level changes holds, for the
   *     committer's tripwires ({@code ChangeSummary#encode}), or null for none
   * @param elsewhere a routing writer's descriptor: the source positions its task routed to other
   *     tables below the batch's largest own offset of each partition ({@code Positions#encode}),
   *     which the committer may record with the batch so that the table's positions stay one range
   *     per partition (docs/ROUTING.md); null for none. Optional, so it needs no new version: a
   *     reader that ignores it records the batch's own positions alone, which is safe
   */
  public record Entry(
      String id, String table, String component, int taskIndex, long createdAtMillis, List<DataFile> files, long oldestTupleMillis,
      String positions, List<DeleteFile> deleteFiles, String changes, String elsewhere) {
    /** An entry of a writer that does not route (or records no source positions). */
    public Entry(
        String id, String table, String component, int taskIndex, long createdAtMillis, List<DataFile> files,
        long oldestTupleMillis, String positions, List<DeleteFile> deleteFiles, String changes) {
      this(id, table, component, taskIndex, createdAtMillis, files, oldestTupleMillis, positions, deleteFiles, changes, null);
    }

    /** An entry without a change summary. */
    public Entry(
        String id, String table, String component, int taskIndex, long createdAtMillis, List<DataFile> files,
        long oldestTupleMillis, String positions, List<DeleteFile> deleteFiles) {
      this(id, table, component, taskIndex, createdAtMillis, files, oldestTupleMillis, positions, deleteFiles, null);
    }

    /** An entry without delete files. */
    public Entry(
        String id, String table, String component, int taskIndex, long createdAtMillis, List<DataFile> files,
        long oldestTupleMillis, String positions) {
      this(id, table, component, taskIndex, createdAtMillis, files, oldestTupleMillis, positions, List.of());
    }

    /** An entry whose oldest tuple is taken to have arrived when the entry was written. */
    public Entry(String id, String table, String component, int taskIndex, long createdAtMillis, List<DataFile> files) {
      this(id, table, component, taskIndex, createdAtMillis, files, createdAtMillis);
    }

    /** An entry without source positions. */
    public Entry(
        String id, String table, String component, int taskIndex, long createdAtMillis, List<DataFile> files, long oldestTupleMillis) {
      this(id, table, component, taskIndex, createdAtMillis, files, oldestTupleMillis, null);
    }
  }

  private DataFilesCodec() {}

  public static byte[] encode(Entry entry, Map<Integer, PartitionSpec> specs) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonGenerator json = JsonUtil.factory().createGenerator(bytes)) {
      json.writeStartObject();
      json.writeNumberField("version", entry.deleteFiles().isEmpty() && entry.changes() == null ? VERSION : VERSION_WITH_DELETES);
      json.writeStringField("id", entry.id());
      json.writeStringField("table", entry.table());
      json.writeStringField("component", entry.component());
      json.writeNumberField("task-index", entry.taskIndex());
      json.writeNumberField("created-at-ms", entry.createdAtMillis());
      json.writeNumberField("oldest-tuple-ms", entry.oldestTupleMillis());
      if (entry.positions() != null) {
        json.writeStringField("source-positions", entry.positions());
      }
      json.writeArrayFieldStart("files");
      for (DataFile file : entry.files()) {
        ContentFileParser.toJson(file, specs.get(file.specId()), json);
      }
      json.writeEndArray();
      if (!entry.deleteFiles().isEmpty()) {
        json.writeArrayFieldStart("delete-files");
        for (DeleteFile file : entry.deleteFiles()) {
          ContentFileParser.toJson(file, specs.get(file.specId()), json);
        }
        json.writeEndArray();
      }
      if (entry.changes() != null) {
        json.writeStringField("changes", entry.changes());
      }
      if (entry.elsewhere() != null) {
        json.writeStringField("elsewhere-positions", entry.elsewhere());
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serialize the data files of " + entry.id(), e);
    }
    return bytes.toByteArray();
  }

  /** Decodes a payload read from {@code location}, or throws naming it. */
  public static Entry decode(byte[] payload, String location, Map<Integer, PartitionSpec> specs) {
    int version = -1;
    try {
      JsonNode root = JsonUtil.mapper().readTree(payload);
      version = JsonUtil.getInt("version", root);
      if (version < 1 || version > VERSION_WITH_DELETES) {
        throw corrupt(version, location, null);
      }
      List<DataFile> files = files(JsonUtil.get("files", root), DataFile.class, version, location, specs);
      List<DeleteFile> deletes = version < VERSION_WITH_DELETES
          ? List.of() : files(JsonUtil.get("delete-files", root), DeleteFile.class, version, location, specs);
      return new Entry(
          JsonUtil.getString("id", root),
          JsonUtil.getString("table", root),
          JsonUtil.getString("component", root),
          JsonUtil.getInt("task-index", root),
          JsonUtil.getLong("created-at-ms", root),
          files,
          version == 1 ? JsonUtil.getLong("created-at-ms", root) : JsonUtil.getLong("oldest-tuple-ms", root),
          JsonUtil.getStringOrNull("source-positions", root),
          deletes,
          version < VERSION_WITH_DELETES ? null : JsonUtil.getStringOrNull("changes", root),
          JsonUtil.getStringOrNull("elsewhere-positions", root));
    } catch (CorruptEntryException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw corrupt(version, location, e);
    }
  }

  private static <F extends ContentFile<F>> List<F> files(
      JsonNode array, Class<F> kind, int version, String location, Map<Integer, PartitionSpec> specs) {
    List<F> files = new ArrayList<>();
    for (JsonNode file : array) {
      int specId = JsonUtil.getInt("spec-id", file);
      if (!specs.containsKey(specId)) {
        throw new UnknownSpecException(
            "entry at " + location + " holds a file of partition spec id " + specId
                + ", which the table does not have (its spec ids are " + new TreeSet<>(specs.keySet()) + ")",
            specId);
      }
      ContentFile<?> content = ContentFileParser.fromJson(file, specs);
      if (!kind.isInstance(content)) {
        throw corrupt(version, location, null);
      }
      files.add(kind.cast(content));
    }
    return files;
  }

  private static CorruptEntryException corrupt(int version, String location, Exception cause) {
    return new CorruptEntryException("unrecognized version " + version + " or corrupt entry at " + location, cause);
  }

  /** A persisted or sent entry this version of storm-iceberg cannot read. */
  public static class CorruptEntryException extends IllegalArgumentException {
    CorruptEntryException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** An entry naming a partition spec the reader's table metadata does not (yet) have. */
  public static final class UnknownSpecException extends CorruptEntryException {
    private final int specId;

    UnknownSpecException(String message, int specId) {
      super(message, null);
      this.specId = specId;
    }

    public int specId() {
      return specId;
    }
  }
}
