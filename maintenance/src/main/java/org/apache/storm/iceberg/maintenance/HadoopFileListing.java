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
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileInfo;

/**
 * Lists a table's files with Hadoop's {@link FileSystem#listFiles(Path, boolean)}, recursively, for a
 * FileIO that cannot list by prefix: the FileIO's own Hadoop configuration when it has one
 * ({@link Configurable}, as Iceberg's {@code HadoopConfigurable} FileIOs), else Hadoop's defaults and
 * the class path's {@code core-site.xml}. Each file is listed as HadoopFileIO's own listing gives it:
 * location, length and modification time. Loaded only when Hadoop is on the class path.
 */
final class HadoopFileListing {
  private HadoopFileListing() {}

  /** The listing, or {@link TableFileListing#refused} when Hadoop has no file system for the table location's scheme. */
  static Function<String, Iterable<FileInfo>> of(Table table) {
    Configuration conf = table.io() instanceof Configurable configurable && configurable.getConf() != null
        ? configurable.getConf()
        : new Configuration();
    String scheme = new Path(table.location()).toUri().getScheme();
    try {
      FileSystem.getFileSystemClass(scheme != null ? scheme : FileSystem.getDefaultUri(conf).getScheme(), conf);
    } catch (IOException | RuntimeException e) {
      throw TableFileListing.refused(table, "Hadoop has no file system for " + table.location() + " (" + e.getMessage() + ")");
    }
    return prefix -> () -> files(conf, new Path(prefix));
  }

  private static Iterator<FileInfo> files(Configuration conf, Path prefix) {
    RemoteIterator<LocatedFileStatus> files;
    try {
      files = prefix.getFileSystem(conf).listFiles(prefix, true);
    } catch (IOException e) {
      throw failed(prefix, e);
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        try {
          return files.hasNext();
        } catch (IOException e) {
          throw failed(prefix, e);
        }
      }

      @Override
      public FileInfo next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        try {
          LocatedFileStatus file = files.next();
          return new FileInfo(file.getPath().toString(), file.getLen(), file.getModificationTime());
        } catch (IOException e) {
          throw failed(prefix, e);
        }
      }
    };
  }

  private static UncheckedIOException failed(Path prefix, IOException e) {
    return new UncheckedIOException("Cannot list " + prefix + " with Hadoop's file system", e);
  }
}
