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

package org.apache.storm.iceberg.kernel.ack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import org.apache.storm.tuple.Tuple;

/** The two ways to hold a batch's tuples, and the check of where one spills. */
public final class Holders {
  /** How many tuples a {@link #compact} holder keeps on the heap before it spills the oldest ids. */
  public static final int COMPACT_TUPLES_ON_HEAP = CompactHeldTuples.MEMORY_CHUNKS * AckIdChunk.SIZE;

  /**
   * A holder that keeps only each tuple's ack ids, and spills the oldest into a file in {@code
   * spillDirectory} beyond {@link #COMPACT_TUPLES_ON_HEAP}; a file it cannot write leaves the ids on
   * the heap. It settles through value-free copies.
   */
  public static HeldTuples compact(Path spillDirectory) {
    return new CompactHeldTuples(CompactHeldTuples.MEMORY_CHUNKS, spillDirectory);
  }

  /** A holder of {@code tuples} themselves, as they are: for a few tuples whose values are small. */
  public static HeldTuples whole(Collection<? extends Tuple> tuples) {
    return new WholeTuples(tuples);
  }

  /**
   * Checks, when a task starts, that {@code directory} can take spill files: a directory this
   * worker may write into. A disk that fills later only keeps ids on the heap; a directory that is
   * missing from the start is a configuration mistake, and fails the task with the fix.
   *
   * @return the directory
   */
  public static Path requireSpillDirectory(Path directory) {
    if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
      throw new IllegalStateException(
          "the spill directory for held ack ids, " + directory + ", is not a writable directory on this worker;"
              + " create it on every worker, or set withSpillDirectory to one that is (the default is the"
              + " worker JVM's java.io.tmpdir)");
    }
    return directory;
  }

  private Holders() {}
}
