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

package org.apache.storm.iceberg.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.WalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the files under a table's location that nothing needs: neither the table's metadata, nor
 * a sink's pending write-ahead-log entry, nor a writer that may still be about to commit them.
 * Failed commits, crashed tasks and expiry without file cleanup leave such files behind.
 *
 * <p>A run lists every file under the table location through the table's FileIO ({@link
 * SupportsPrefixOperations#listPrefix}), or, for a FileIO that cannot list, through Hadoop's file
 * system for the location's scheme when Hadoop is on the class path ({@link TableFileListing}), and
 * keeps:
 *
 * <ol>
 *   <li>every file reachable from the table's metadata, found with Iceberg's own readers: each
 *       snapshot's manifest list, manifests, data files and delete files (deletion vectors' Puffin
 *       files included), the current metadata file and every one in its metadata log, statistics
 *       and partition-statistics files, and the version hint;
 *   <li>every file any pending WAL entry of the table names: any JSON string in its payload (read
 *       without knowing the kernel's format, {@link WalFiles}), so that the data files of a commit not
 *       yet settled stay for the sink that settles it; and the WAL store's own files, under {@code
 *       metadata/_storm_wal/};
 *   <li>every file younger than {@link Settings#minAge()}, or whose listing gives no time: a writer
 *       (a sink between writing a file and putting its WAL entry, a compaction group, a concurrent
 *       Iceberg commit) may hold it still.
 * </ol>
 *
 * <p>Locations are compared by path once the file system is known to be one: the listing may spell
 * the table location's scheme or authority otherwise than Iceberg wrote it ({@code file:/t} for
 * {@code file:///t}, {@code s3a://} for {@code s3://}), so scheme aliases (s3, s3a, s3n) are folded
 * and a missing authority matches the one the others name. Only a file no reachable location, WAL
 * entry or age keeps is deleted, through the FileIO's bulk delete when it has one.
 *
 * <p>Any doubt deletes nothing: a FileIO that cannot list by prefix and no Hadoop file system to
 * list with, a WAL store that cannot list the table's entries, an entry whose payload is not JSON
 * (but a probe the preflight check left behind, which names no file), a listed file outside the
 * table location, a scheme or authority of the listing or of the metadata under the table location
 * that another of them does not share (another bucket or name node), or a listing that fails
 * partway each throw before the first delete.
 *
 * <p>Order matters against a running sink: the WAL is listed first and the table refreshed after.
 * A commit whose entry is gone by then landed before the refresh, so its files are reachable; one
 * whose entry is still there is kept by it. What remains for {@code minAge} to cover is the time a
 * writer holds a file before it is committed or named by a WAL entry (the sink's commit interval and
 * retries, a compaction run); Iceberg's own default of three days is a safe choice.
 */
public final class OrphanFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanFiles.class);
  /** How many times a run lists the table location before it gives up, deleting nothing. */
  static final int LISTING_ATTEMPTS = 3;
  /** The table-FileIO WAL store's directory under the table location; its files are live whatever their age. */
  static final String WAL_DIRECTORY = "metadata/_storm_wal";

  /**
   * What to delete.
   *
   * @param minAge files younger than this are kept: longer than any writer holds a file it has not
   *     committed nor named in a WAL entry
   * @param dryRun report what would be deleted and delete nothing
   */
  public record Settings(Duration minAge, boolean dryRun) {
    public Settings {
      Objects.requireNonNull(minAge, "minAge");
      if (minAge.isNegative() || minAge.isZero()) {
        throw new IllegalArgumentException("orphan-file min age " + minAge + " is not positive: give the age a file must reach"
            + " before it may be deleted, longer than any writer holds a file it has not committed, e.g. PT72H");
      }
    }
  }

  /**
   * What a run did. Files the table's metadata or the WAL store itself keeps are counted in {@code
   * filesListed} only.
   *
   * @param filesListed every file found under the table location
   * @param deleted the locations deleted, as listed (with a dry run, those that would have been)
   * @param keptYoung orphans kept because they are younger than the minimum age (or have no time)
   * @param keptForWal orphans kept because a pending WAL entry names them
   */
  public record Result(int filesListed, List<String> deleted, List<String> keptYoung, List<String> keptForWal, boolean dryRun) {
    public Result {
      deleted = List.copyOf(deleted);
      keptYoung = List.copyOf(keptYoung);
      keptForWal = List.copyOf(keptForWal);
    }
  }

  private final Settings settings;
  private final WalStore walStore;

  /** @param walStore the sinks' WAL store, which must list every entry of a table */
  public OrphanFiles(Settings settings, WalStore walStore) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.walStore = Objects.requireNonNull(walStore, "walStore");
  }

  /**
   * Deletes the orphan files of {@code table} older than the minimum age at {@code nowMillis}. The
   * table is refreshed here, after the WAL is listed (see the class comment for why).
   *
   * @throws IllegalStateException when the run cannot tell live files from orphans; nothing is deleted
   * @throws RuntimeException whatever the listing throws, before any delete; or what a delete throws,
   *     when some orphans may be gone and the rest are left for the next run
   */
  public Result run(Table table, long nowMillis) {
    Function<String, Iterable<FileInfo>> listing = listable(table);
    WalFiles wal = WalFiles.of(walStore, table);
    table.refresh();
    Map<String, Location> reachable = reachable(table);
    List<FileInfo> listed = list(table, listing);

    Location tableLocation = Location.of(table.location());
    requireOneFileSystem(table, tableLocation, reachable, listed);
    String walDirectory = tableLocation.path() + "/" + WAL_DIRECTORY + "/";
    long youngAfter = nowMillis - settings.minAge().toMillis();
    List<String> orphans = new ArrayList<>();
    List<String> young = new ArrayList<>();
    List<String> named = new ArrayList<>();
    for (FileInfo file : listed) {
      Location location = Location.of(file.location());
      if (reachable.containsKey(location.path())) {
        // Reachable; requireOneFileSystem made sure it is the same file system.
      } else if (wal.entries().contains(location.path()) || location.path().startsWith(walDirectory)) {
        // The WAL store's own files: as live as the table's metadata.
      } else if (wal.named().contains(location.path())) {
        named.add(file.location());
      } else if (file.createdAtMillis() <= 0 || file.createdAtMillis() > youngAfter) {
        young.add(file.location());
      } else {
        orphans.add(file.location());
      }
    }
    if (!settings.dryRun() && !orphans.isEmpty()) {
      delete(table.io(), orphans);
    }
    LOG.info("Orphan files of {}: {} listed, {} {}, {} kept as younger than {}, {} kept for pending WAL entries",
        table.name(), listed.size(), orphans.size(), settings.dryRun() ? "would be deleted" : "deleted", young.size(),
        settings.minAge(), named.size());
    return new Result(listed.size(), orphans, young, named, settings.dryRun());
  }

  /**
   * Refuses a run, before anything is deleted, when the listing and the table's metadata disagree
   * on the file system: a listed file, the table location, or a reachable file under the table
   * location's path that names a scheme or authority another of them does not. Paths alone cannot
   * be trusted then: a FileIO that lists another bucket or name node than the one the metadata
   * names (an endpoint or bucket mapping, a table copied or moved, files registered from elsewhere)
   * would show every file the metadata names as missing and every listed one as an orphan. Scheme
   * aliases are folded ({@code s3a}, {@code s3n} are {@code s3}); a missing scheme or authority
   * ({@code file:/t}, {@code hdfs:///t}, {@code /t}) is the FileIO's default and matches the one
   * the others name. Reachable files outside the table location's path (data added from another
   * location) are never listed here, so they do not count.
   *
   * @throws IllegalStateException naming both file systems, an example of each, and what to check
   */
  private static void requireOneFileSystem(Table table, Location tableLocation, Map<String, Location> reachable, List<FileInfo> listed) {
    String disagreement = fileSystemDisagreement(tableLocation, reachable.values(), listed.stream().map(FileInfo::location).toList());
    if (disagreement == null) {
      return;
    }
    String message = "Cannot remove orphan files of " + table.name() + ": " + disagreement + ". Files cannot be matched by path"
        + " across file systems, so nothing is deleted. Check that the catalog's FileIO (io-impl, its endpoint, bucket or"
        + " access-point settings, fs.defaultFS) lists the bucket or name node the table's metadata names, and whether the table"
        + " or some of its files were copied, moved or registered from another one";
    LOG.warn(message);
    throw new IllegalStateException(message);
  }

  /**
   * What makes the table location, its reachable files under that location's path and the listed
   * files name more than one file system, or null when they name one (see {@link
   * #requireOneFileSystem}).
   */
  static String fileSystemDisagreement(Location tableLocation, Iterable<Location> reachable, List<String> listed) {
    String under = tableLocation.path() + "/";
    Map<String, String> schemes = new LinkedHashMap<>();
    Map<String, String> authorities = new LinkedHashMap<>();
    note(schemes, authorities, tableLocation, "the table location is " + tableLocation);
    for (Location location : reachable) {
      if (location.path().startsWith(under)) {
        note(schemes, authorities, location, "the table's metadata names " + location);
      }
    }
    for (String location : listed) {
      note(schemes, authorities, Location.of(location), "the listing gave " + location);
    }
    Map<String, String> differing = schemes.size() > 1 ? schemes : authorities.size() > 1 ? authorities : null;
    if (differing == null) {
      return null;
    }
    List<String> seen = List.copyOf(differing.values());
    return "the table's metadata and the listing of its location name different file systems ("
        + (differing == schemes ? "schemes " : "authorities ") + differing.keySet() + "): " + seen.get(0) + ", but " + seen.get(1);
  }

  /** Remembers {@code location}'s scheme and authority, when given, each with the first place it was seen. */
  private static void note(Map<String, String> schemes, Map<String, String> authorities, Location location, String seen) {
    if (!location.scheme().isEmpty()) {
      schemes.putIfAbsent(location.scheme(), seen);
    }
    if (!location.authority().isEmpty()) {
      authorities.putIfAbsent(location.authority(), seen);
    }
  }

  private static Function<String, Iterable<FileInfo>> listable(Table table) {
    Function<String, Iterable<FileInfo>> listing = TableFileListing.of(table);
    if (!(table instanceof HasTableOperations)) {
      // ReachableFileUtil reads the metadata log through the table's operations.
      throw new IllegalStateException("Cannot remove orphan files of " + table.name() + ": a " + table.getClass().getName()
          + " does not give its metadata log, so reachable metadata files cannot be told; pass the table the catalog loaded");
    }
    return listing;
  }

  /** Every file the table's metadata reaches, by normalised path. */
  private static Map<String, Location> reachable(Table table) {
    Map<String, Location> reachable = new HashMap<>();
    // The current metadata file and its log, not the logs of the files in it: those reach back to the
    // table's first commit, and a file off the current log is one Iceberg itself no longer keeps.
    ReachableFileUtil.metadataFileLocations(table, false).forEach(location -> add(reachable, location));
    ReachableFileUtil.manifestListLocations(table).forEach(location -> add(reachable, location));
    ReachableFileUtil.statisticsFilesLocations(table).forEach(location -> add(reachable, location));
    add(reachable, ReachableFileUtil.versionHintLocation(table));
    FileIO io = table.io();
    Map<String, ManifestFile> manifests = new LinkedHashMap<>();
    for (Snapshot snapshot : table.snapshots()) {
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        manifests.putIfAbsent(manifest.path(), manifest);
      }
    }
    for (ManifestFile manifest : manifests.values()) {
      add(reachable, manifest.path());
      contentFiles(table, manifest).forEach(location -> add(reachable, location));
    }
    return reachable;
  }

  /** The locations of the live data or delete files {@code manifest} lists, as Iceberg's reachability counts them. */
  private static List<String> contentFiles(Table table, ManifestFile manifest) {
    List<String> locations = new ArrayList<>();
    try {
      if (manifest.content() == ManifestContent.DATA) {
        try (CloseableIterable<String> paths = ManifestFiles.readPaths(manifest, table.io(), table.specs())) {
          paths.forEach(locations::add);
        }
      } else {
        try (ManifestReader<DeleteFile> deletes = ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
          deletes.forEach(file -> locations.add(file.location()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read manifest " + manifest.path() + " of " + table.name(), e);
    }
    return locations;
  }

  private static void add(Map<String, Location> reachable, String location) {
    Location parsed = Location.of(location);
    reachable.putIfAbsent(parsed.path(), parsed);
  }

  /**
   * Every file under the table location, read to the end before anything is decided. A listing that
   * breaks off is tried again, up to {@link #LISTING_ATTEMPTS} in all: a file deleted while it is
   * listed (an expiry or a commit's metadata cleanup beside the run) breaks Hadoop's local listing,
   * which reads each file's permissions as it goes. Files that appear meanwhile are younger than the
   * minimum age, so a later listing keeps them all the same.
   */
  private static List<FileInfo> list(Table table, Function<String, Iterable<FileInfo>> listing) {
    for (int attempt = 1; ; attempt++) {
      try {
        return listOnce(table, listing);
      } catch (IllegalStateException refused) {
        throw refused;
      } catch (RuntimeException brokenOff) {
        if (attempt == LISTING_ATTEMPTS) {
          throw brokenOff;
        }
        LOG.info("Listing the files of {} broke off ({}); listing again", table.name(), Redaction.of(brokenOff).toString());
      }
    }
  }

  private static List<FileInfo> listOnce(Table table, Function<String, Iterable<FileInfo>> listing) {
    String prefix = table.location().endsWith("/") ? table.location() : table.location() + "/";
    String under = Location.of(prefix).path() + "/";
    List<FileInfo> files = new ArrayList<>();
    for (FileInfo file : listing.apply(prefix)) {
      // A FileIO listing relative keys, or beyond the prefix, would make every file look unreachable.
      if (!Location.of(file.location()).path().startsWith(under)) {
        throw new IllegalStateException("Cannot remove orphan files of " + table.name() + ": listing " + prefix + " gave "
            + file.location() + ", which is not under the table location, so listed files cannot be matched to the"
            + " table's; nothing is deleted");
      }
      files.add(file);
    }
    return files;
  }

  private static void delete(FileIO io, List<String> orphans) {
    if (io instanceof SupportsBulkOperations bulk) {
      bulk.deleteFiles(orphans);
    } else {
      for (String orphan : orphans) {
        io.deleteFile(orphan);
      }
    }
  }

  /**
   * A location split for comparison: scheme aliases folded ({@code s3a}, {@code s3n} to {@code s3}),
   * an empty authority ({@code file:///t}) the same as none ({@code file:/t}), repeated and trailing
   * slashes dropped. Not a URI: locations need not be valid URIs (spaces, unescaped characters).
   */
  record Location(String scheme, String authority, String path) {
    static Location of(String location) {
      String scheme = "";
      String rest = location;
      int colon = location.indexOf(':');
      int slash = location.indexOf('/');
      if (colon > 0 && (slash < 0 || colon < slash)) {
        scheme = location.substring(0, colon).toLowerCase(Locale.ROOT);
        rest = location.substring(colon + 1);
      }
      if (scheme.equals("s3a") || scheme.equals("s3n")) {
        scheme = "s3";
      }
      String authority = "";
      if (rest.startsWith("//")) {
        int end = rest.indexOf('/', 2);
        authority = end < 0 ? rest.substring(2) : rest.substring(2, end);
        rest = end < 0 ? "/" : rest.substring(end);
      }
      String path = rest.replaceAll("/{2,}", "/");
      if (path.length() > 1 && path.endsWith("/")) {
        path = path.substring(0, path.length() - 1);
      }
      return new Location(scheme, authority, path);
    }

    @Override
    public String toString() {
      return (scheme.isEmpty() ? "" : scheme + ":") + (authority.isEmpty() ? "" : "//" + authority) + path;
    }

    /** Whether both name the same file system, a missing scheme or authority matching any. */
    boolean sameFileSystem(Location other) {
      return (scheme.isEmpty() || other.scheme.isEmpty() || scheme.equals(other.scheme))
          && (authority.isEmpty() || other.authority.isEmpty() || authority.equals(other.authority));
    }
  }
}
