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


package org.apache.storm.iceberg.kernel.preflight;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;

/**
 * The probes a preflight writes where the sink will write, each deleted again: a file where the
 * sink's next data file would go, through the table's FileIO, and an entry put, listed and deleted
 * in the sink's WAL store under a scope of its own. A probe that cannot be deleted is reported, never left silently.
 */
final class StorageProbes {
  private StorageProbes() {}

  /**
   * Writes a probe file where the sink's next data file would go, through the table's FileIO, reads
   * it back, deletes it and checks it is gone.
   *
   * @return what was written and deleted, in words
   */
  static String dataFile(Table table, FileFormat format) {
    OutputFileFactory files = OutputFileFactory.builderFor(table, 0, 0).format(format)
        .operationId("storm-iceberg-preflight-" + UUID.randomUUID()).build();
    OutputFile probe = files.newOutputFile().encryptingOutputFile();
    byte[] content = "storm-iceberg preflight probe".getBytes(StandardCharsets.UTF_8);
    try (PositionOutputStream out = probe.create()) {
      out.write(content);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the probe " + probe.location() + ": " + e.getMessage(), e);
    }
    String location = probe.location();
    FileIO io = table.io();
    if (io.newInputFile(location).getLength() != content.length) {
      throw new IllegalStateException("the probe " + location + " was written but reads back with another length through the"
          + " table's FileIO");
    }
    deleteProbe(io, location);
    return "wrote, read and deleted a probe file in " + parent(location) + " through " + io.getClass().getSimpleName();
  }

  /**
   * Puts, lists and deletes one entry in {@code wal} under a probe scope of the sink's WAL namespace.
   *
   * @return what was done, in words
   */
  static String walEntry(WalStore wal, Table table, String walNamespace) {
    String commitId = "preflight-" + UUID.randomUUID();
    WalScope scope = new WalScope(table, walNamespace, WalScope.PREFLIGHT_TOPOLOGY, WalScope.PREFLIGHT_COMPONENT, 0);
    String location = wal.put(scope, commitId, "storm-iceberg preflight probe".getBytes(StandardCharsets.UTF_8));
    boolean listed;
    try {
      listed = wal.list(scope).stream().map(WalEntry::commitId).anyMatch(commitId::equals);
    } finally {
      try {
        wal.delete(scope, commitId);
      } catch (RuntimeException e) {
        throw new IllegalStateException("the probe entry " + location + " was written but could not be deleted ("
            + e.getMessage() + "): delete it by hand", e);
      }
    }
    if (!listed) {
      throw new IllegalStateException("the probe entry " + location + " was written but its scope's listing does not"
          + " show it: the sink finds its pending commits by that listing after a crash");
    }
    if (wal.list(scope).stream().map(WalEntry::commitId).anyMatch(commitId::equals)) {
      throw new IllegalStateException("the probe entry " + location + " is still listed after its delete: remove it by hand");
    }
    return "put, listed and deleted a probe entry at " + location;
  }

  private static void deleteProbe(FileIO io, String location) {
    io.deleteFile(location);
    if (io.newInputFile(location).exists()) {
      throw new IllegalStateException("the probe " + location + " was written but could not be deleted: delete it by hand");
    }
  }

  private static String parent(String location) {
    int slash = location.lastIndexOf('/');
    return slash < 0 ? location : location.substring(0, slash);
  }

  /**
   * The directories a probe of a table not yet created leaves on a local disk: removed when the
   * table's location did not exist before. Object stores have no directories; other file systems
   * keep the empty directories, which the table's creation would make anyway.
   */
  static final class LocalLocation implements AutoCloseable {
    private final Path path;
    private final boolean existed;

    /** @param location the location of a table not created yet, or null for an existing table's (left as it is) */
    LocalLocation(String location) {
      Path local = location == null ? null : localPath(location);
      // The outermost directory the probes would create: a warehouse or namespace directory may be missing too.
      while (local != null && local.getParent() != null && !Files.exists(local.getParent())) {
        local = local.getParent();
      }
      this.path = local;
      this.existed = local == null || Files.exists(local);
    }

    private static Path localPath(String location) {
      try {
        URI uri = URI.create(location);
        if (uri.getScheme() == null) {
          return Path.of(location);
        }
        return "file".equals(uri.getScheme()) ? Path.of(uri) : null;
      } catch (RuntimeException unparsable) {
        return null;
      }
    }

    @Override
    public void close() {
      if (existed) {
        return;
      }
      try (Stream<Path> created = Files.walk(path)) {
        for (Path each : created.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(each);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot remove the probe's directory " + path + ": delete it by hand", e);
      }
    }
  }
}
