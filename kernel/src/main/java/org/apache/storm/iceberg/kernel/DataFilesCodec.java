package org.apache.storm.iceberg.kernel;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ContentFileParser;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.util.JsonUtil;

/**
 * The versioned JSON the kernel persists about a set of data files (a WAL entry): a format version,
 * the commit id, the table, when it was written, and each file as {@link ContentFileParser} writes
 * it (spec id, partition data and column metrics included). An unknown version or an unreadable
 * payload is rejected with "unrecognized version N or corrupt entry at LOCATION".
 */
public final class DataFilesCodec {
  public static final int VERSION = 1;

  /** A decoded entry. */
  public record Entry(String commitId, String table, long createdAtMillis, List<DataFile> files) {}

  private DataFilesCodec() {}

  public static byte[] encode(
      String commitId, String table, long createdAtMillis, List<DataFile> files, Map<Integer, PartitionSpec> specs) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonGenerator json = JsonUtil.factory().createGenerator(bytes)) {
      json.writeStartObject();
      json.writeNumberField("version", VERSION);
      json.writeStringField("commit-id", commitId);
      json.writeStringField("table", table);
      json.writeNumberField("created-at-ms", createdAtMillis);
      json.writeArrayFieldStart("files");
      for (DataFile file : files) {
        ContentFileParser.toJson(file, specs.get(file.specId()), json);
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serialize data files of commit " + commitId, e);
    }
    return bytes.toByteArray();
  }

  /** Decodes a payload read from {@code location}, or throws naming it. */
  public static Entry decode(byte[] payload, String location, Map<Integer, PartitionSpec> specs) {
    int version = -1;
    try {
      JsonNode root = JsonUtil.mapper().readTree(new String(payload, StandardCharsets.UTF_8));
      version = JsonUtil.getInt("version", root);
      if (version != VERSION) {
        throw corrupt(version, location, null);
      }
      List<DataFile> files = new ArrayList<>();
      for (JsonNode file : JsonUtil.get("files", root)) {
        ContentFile<?> content = ContentFileParser.fromJson(file, specs);
        if (!(content instanceof DataFile)) {
          throw corrupt(version, location, null);
        }
        files.add((DataFile) content);
      }
      return new Entry(
          JsonUtil.getString("commit-id", root),
          JsonUtil.getString("table", root),
          JsonUtil.getLong("created-at-ms", root),
          files);
    } catch (IOException | RuntimeException e) {
      if (e instanceof CorruptEntryException) {
        throw (CorruptEntryException) e;
      }
      throw corrupt(version, location, e);
    }
  }

  private static CorruptEntryException corrupt(int version, String location, Exception cause) {
    return new CorruptEntryException(
        "unrecognized version " + version + " or corrupt entry at " + location, cause);
  }

  /** A persisted entry this version of storm-iceberg cannot read. */
  public static final class CorruptEntryException extends IllegalArgumentException {
    CorruptEntryException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
