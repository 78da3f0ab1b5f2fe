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

package org.apache.storm.iceberg.wal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreListing;

/**
 * The default WAL store ({@code "table-fileio"}): one file per entry, written through the table's
 * own {@link FileIO} under {@code <table location>/metadata/_storm_wal/<namespace>/<topology>/
 * <component>/<task>/<commit id>.json}. It needs no storage beyond the table's and no extra
 * credentials. Listing needs a FileIO that {@link SupportsPrefixOperations} (HadoopFileIO, S3FileIO,
 * ResolvingFileIO and most others do).
 */
final class TableFileIoWalStore implements WalStore, WalStoreListing {
  static final String WAL_DIR = "metadata/_storm_wal";
  /** How many times a listing is tried: see {@link #listUnder}. */
  static final int LISTING_ATTEMPTS = 3;

  @Override
  public String put(WalScope scope, String commitId, byte[] payload) {
    String location = entryLocation(scope, commitId);
    try (OutputStream out = io(scope).newOutputFile(location).createOrOverwrite()) {
      out.write(payload);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write WAL entry " + location, e);
    }
    return location;
  }

  /** Refuses a table whose FileIO cannot list by prefix: entries could be written but never found. */
  static void requireListable(org.apache.iceberg.Table table) {
    FileIO io = table.io();
    if (!(io instanceof SupportsPrefixOperations)) {
      throw new IllegalStateException(
          "WAL store 'table-fileio' needs a FileIO that can list by prefix, but table "
              + table.name()
              + " uses "
              + io.getClass().getName()
              + ", which cannot; keep the WAL on a Hadoop file system instead with"
              + " withWalStore(\"hadoop-fs\", Map.of(\"path\", \"hdfs://…/storm-iceberg-wal\"))");
    }
  }

  @Override
  public List<WalEntry> list(WalScope scope) {
    requireListable(scope.table());
    // Locations are rebuilt from the scope, not taken from the listing: some FileIOs list relative paths.
    return listUnder(io(scope), scopeDirectory(scope), (listed, commitId) -> entryLocation(scope, commitId));
  }

  @Override
  public List<WalEntry> listAll(org.apache.iceberg.Table table) {
    requireListable(table);
    String base = table.location().endsWith("/") ? table.location() : table.location() + "/";
    return listUnder(table.io(), base + WAL_DIR + "/", (listed, commitId) -> listed);
  }

  /**
   * Every entry under {@code prefix}, read from the location {@code locationOf} gives for it. A
   * listing that breaks off is listed again, up to {@link #LISTING_ATTEMPTS} in all: Hadoop's local
   * file system reads each file's permissions as it lists it, and breaks off when the file was
   * deleted meanwhile, as every settled entry is, so table maintenance listing a busy sink's entries
   * would otherwise fail now and then.
   */
  private static List<WalEntry> listUnder(
      FileIO io, String prefix, java.util.function.BiFunction<String, String, String> locationOf) {
    for (int attempt = 1; ; attempt++) {
      try {
        return listOnce(io, prefix, locationOf);
      } catch (RuntimeException brokenOff) {
        if (attempt == LISTING_ATTEMPTS) {
          throw brokenOff;
        }
      }
    }
  }

  private static List<WalEntry> listOnce(
      FileIO io, String prefix, java.util.function.BiFunction<String, String, String> locationOf) {
    List<WalEntry> entries = new ArrayList<>();
    try {
      for (FileInfo file : ((SupportsPrefixOperations) io).listPrefix(prefix)) {
        String commitId = WalPaths.commitIdOf(file.location().substring(file.location().lastIndexOf('/') + 1));
        if (commitId != null) {
          String location = locationOf.apply(file.location(), commitId);
          // An empty entry is not read: S3 (and S3-compatible stores) answer the ranged GET that
          // S3FileIO sends with 416, as HTTP requires for an empty object.
          byte[] payload = file.size() == 0 ? new byte[0] : readUnlessGone(io, location, file.size());
          if (payload != null) {
            entries.add(new WalEntry(commitId, location, payload));
          }
        }
      }
    } catch (NotFoundException e) {
      // The prefix itself is absent: no entry was ever written there.
      return List.of();
    } catch (UncheckedIOException e) {
      if (e.getCause() instanceof java.io.FileNotFoundException) {
        return List.of();
      }
      throw e;
    }
    return entries;
  }

  /**
   * The entry's bytes, or null when it was deleted between the listing and this read: it was settled,
   * so it is no longer pending. Only that entry is left out; the others are still read.
   */
  private static byte[] readUnlessGone(FileIO io, String location, long size) {
    try {
      return read(io.newInputFile(location, size));
    } catch (NotFoundException e) {
      return null;
    } catch (UncheckedIOException e) {
      if (e.getCause() instanceof java.io.FileNotFoundException) {
        return null;
      }
      throw e;
    }
  }

  @Override
  public void delete(WalScope scope, String commitId) {
    io(scope).deleteFile(entryLocation(scope, commitId));
  }

  private static FileIO io(WalScope scope) {
    return scope.table().io();
  }

  static String scopeDirectory(WalScope scope) {
    String tableLocation = scope.table().location();
    String base = tableLocation.endsWith("/") ? tableLocation : tableLocation + "/";
    return base + WAL_DIR + "/" + WalPaths.scopePath(scope) + "/";
  }

  private static String entryLocation(WalScope scope, String commitId) {
    return scopeDirectory(scope) + WalPaths.entryFileName(commitId);
  }

  private static byte[] read(InputFile file) {
    try (InputStream in = file.newStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read WAL entry " + file.location(), e);
    }
  }
}
