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

import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * How orphan removal lists the files under a table's location: through the table's FileIO when it
 * lists by prefix ({@link SupportsPrefixOperations}), else through Hadoop's file system for the
 * location's scheme ({@link HadoopFileListing}). Hadoop's classes are loaded only in the second case,
 * so maintenance runs without Hadoop on the class path when the FileIO lists.
 */
final class TableFileListing {
  private TableFileListing() {}

  /**
   * A function from a prefix to every file under it (errors may come while iterating), or an
   * IllegalStateException when the table has neither a listing FileIO nor a Hadoop file system.
   */
  static Function<String, Iterable<FileInfo>> of(Table table) {
    return of(table, hadoopPresent());
  }

  static Function<String, Iterable<FileInfo>> of(Table table, boolean hadoopPresent) {
    if (table.io() instanceof SupportsPrefixOperations io) {
      return io::listPrefix;
    }
    if (!hadoopPresent) {
      throw refused(table, "Hadoop is not on the class path");
    }
    return HadoopFileListing.of(table);
  }

  /** Why the files under {@code table}'s location cannot be listed. */
  static IllegalStateException refused(Table table, String why) {
    return new IllegalStateException("Cannot remove orphan files of " + table.name() + ": its FileIO "
        + table.io().getClass().getName() + " cannot list by prefix (SupportsPrefixOperations) and " + why + ", so the"
        + " files under its location cannot be found; use a FileIO that lists (HadoopFileIO, S3FileIO, ResolvingFileIO"
        + " do), or put Hadoop's client and a Hadoop FileSystem for the location's scheme on the class path");
  }

  /** Whether Hadoop's client classes are on this JVM's class path, without loading them. */
  static boolean hadoopPresent() {
    try {
      Class.forName("org.apache.hadoop.fs.FileSystem", false, TableFileListing.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
