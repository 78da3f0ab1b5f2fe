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

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreListing;

/**
 * The {@code "hadoop-fs"} WAL store: entries under any Hadoop file system path (HDFS, a local
 * directory, or any store with a Hadoop connector), at {@code <path>/<table>/<namespace>/<topology>/
 * <component>/<task>/<commit id>.json}. For tables whose FileIO cannot list by prefix, which the
 * default {@code table-fileio} store needs. The path must be reachable, with the same contents, from
 * every worker a task may run on.
 */
final class HadoopFsWalStore implements WalStore, WalStoreListing {
  private final Path root;
  // Building a Configuration reads Hadoop's XML resources: once per store, not once per entry.
  private final Configuration conf = new Configuration();

  HadoopFsWalStore(String path) {
    this.root = new Path(path);
  }

  @Override
  public String put(WalScope scope, String commitId, byte[] payload) {
    Path entry = new Path(scopeDirectory(scope), WalPaths.entryFileName(commitId));
    try {
      FileSystem fs = entry.getFileSystem(conf);
      try (OutputStream out = fs.create(entry, true)) {
        out.write(payload);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write WAL entry " + entry, e);
    }
    return entry.toString();
  }

  @Override
  public List<WalEntry> list(WalScope scope) {
    Path dir = scopeDirectory(scope);
    List<WalEntry> entries = new ArrayList<>();
    try {
      FileSystem fs = dir.getFileSystem(conf);
      FileStatus[] files;
      try {
        files = fs.listStatus(dir);
      } catch (FileNotFoundException e) {
        return List.of();
      }
      for (FileStatus file : files) {
        String commitId = WalPaths.commitIdOf(file.getPath().getName());
        if (file.isFile() && commitId != null) {
          entries.add(new WalEntry(commitId, file.getPath().toString(), read(fs, file.getPath())));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list WAL entries under " + dir, e);
    }
    return entries;
  }

  @Override
  public List<WalEntry> listAll(org.apache.iceberg.Table table) {
    Path dir = new Path(root, WalPaths.encode(table.name()));
    List<WalEntry> entries = new ArrayList<>();
    try {
      FileSystem fs = dir.getFileSystem(conf);
      org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files;
      try {
        files = fs.listFiles(dir, true);
      } catch (FileNotFoundException e) {
        return List.of();
      }
      while (files.hasNext()) {
        FileStatus file = files.next();
        String commitId = WalPaths.commitIdOf(file.getPath().getName());
        if (commitId != null) {
          entries.add(new WalEntry(commitId, file.getPath().toString(), read(fs, file.getPath())));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list WAL entries under " + dir, e);
    }
    return entries;
  }

  @Override
  public void delete(WalScope scope, String commitId) {
    Path entry = new Path(scopeDirectory(scope), WalPaths.entryFileName(commitId));
    try {
      entry.getFileSystem(conf).delete(entry, false);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete WAL entry " + entry, e);
    }
  }

  private Path scopeDirectory(WalScope scope) {
    return new Path(root, WalPaths.encode(scope.table().name()) + "/" + WalPaths.scopePath(scope));
  }

  private static byte[] read(FileSystem fs, Path path) throws IOException {
    try (InputStream in = fs.open(path)) {
      return in.readAllBytes();
    }
  }

  @Override
  public String toString() {
    return "HadoopFsWalStore{" + root + "}";
  }
}
