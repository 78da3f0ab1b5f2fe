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

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.tuple.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link HeldTuples#compact}: the tuples of a batch kept as only what acking or failing them needs
 * ({@link TupleCopies}), in chunks of columns ({@link AckIdChunk}). Their values are not kept; the
 * records are already in the batch's files. A tuple costs about 22 bytes here instead of the few
 * hundred its {@code TupleImpl} and values retain. Beyond {@code memoryChunks} chunks, the oldest
 * chunks go to a spill file ({@link AckIdSpill}), so a batch's heap is its open files plus a
 * constant, however many records it holds. When the file cannot be written, chunks stay on the
 * heap: a full disk costs memory, never a tuple.
 *
 * <p>Settling makes a <b>new</b> value-free copy of each tuple, one pass over the chunks, spilled
 * ones read back in order; the pass that reaches the end deletes the spill file, so a spilled batch
 * is read once. {@link #materialize} keeps its pass's copies and settles those. A tuple that does
 * not fit the compact form is kept whole, on the heap.
 */
final class CompactHeldTuples implements HeldTuples {
  private static final Logger LOG = LoggerFactory.getLogger(CompactHeldTuples.class);
  /** Chunks kept on the heap: about 5.5 MiB of ids. */
  static final int MEMORY_CHUNKS = 64;
  private static final int CHUNK = AckIdChunk.SIZE;

  private final int memoryChunks;
  private final Path spillDirectory;
  private final AckIdSpill.Opener spillOpener;
  private final TupleCopies copies = new TupleCopies();
  private final ArrayDeque<AckIdChunk> chunks = new ArrayDeque<>();
  private final Map<Integer, Tuple> wholeTuples = new HashMap<>();
  private AckIdChunk last;
  private int size;
  private AckIdSpill spill;
  private boolean spillBroken;
  private List<Tuple> materialized;
  private boolean settled;

  /** Keeps at most {@code memoryChunks} chunks on the heap and spills older ones into {@code spillDirectory}. */
  CompactHeldTuples(int memoryChunks, Path spillDirectory) {
    this(memoryChunks, spillDirectory, AckIdSpill.Opener.FILE);
  }

  /** As above, opening the spill file with {@code spillOpener}: tests make its writes fail. */
  CompactHeldTuples(int memoryChunks, Path spillDirectory, AckIdSpill.Opener spillOpener) {
    this.memoryChunks = memoryChunks;
    this.spillDirectory = spillDirectory;
    this.spillOpener = spillOpener;
  }

  @Override
  public void hold(Tuple tuple) {
    int slot = size % CHUNK;
    if (slot == 0) {
      if (chunks.size() >= memoryChunks && !spillBroken) {
        spillOldestChunk();
      }
      last = new AckIdChunk();
      chunks.add(last);
    }
    if (!copies.capture(last, slot, tuple)) {
      last.kinds[slot] = TupleCopies.WHOLE;
      wholeTuples.put(size, tuple);
    }
    size++;
  }

  /** Moves the oldest chunk to the spill file; when that fails, spilling stops and chunks stay on the heap. */
  private void spillOldestChunk() {
    try {
      if (spill == null) {
        spill = AckIdSpill.create(spillDirectory, spillOpener);
      }
      spill.write(chunks.peekFirst());
      chunks.removeFirst();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot spill the ids of held tuples to {}; keeping them on the heap", spillDirectory, Redaction.of(e));
      spillBroken = true;
    }
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public List<Tuple> materialize() {
    requireUnsettled();
    if (materialized == null) {
      List<Tuple> tuples = new ArrayList<>(size);
      copies().forEachRemaining(tuples::add);
      materialized = Collections.unmodifiableList(tuples);
    }
    return materialized;
  }

  @Override
  public void ackAll(IOutputCollector collector) {
    settle().forEachRemaining(collector::ack);
  }

  @Override
  public void failAll(IOutputCollector collector) {
    settle().forEachRemaining(collector::fail);
  }

  /** The tuples to settle: the materialized ones, or else one pass of new copies, made as they are settled. */
  private Iterator<Tuple> settle() {
    requireUnsettled();
    settled = true;
    return materialized != null ? materialized.iterator() : copies();
  }

  private void requireUnsettled() {
    if (settled) {
      throw new IllegalStateException(
          spill == null ? "these held tuples are settled already" : "these held tuples were spilled and are settled already");
    }
  }

  @Override
  public void release() {
    if (spill != null) {
      spill.delete();
    }
  }

  @Override
  public String toString() {
    // Not the elements: a pass would use up a spilled batch's one pass.
    return size + " held tuples" + (spill == null ? "" : ", " + spill.chunks + " chunks of them spilled to " + spill.file);
  }

  /**
   * One pass of new value-free copies, in the order held; spilled chunks are read back in order,
   * and the file is deleted when the pass ends.
   *
   * @throws IllegalStateException when a spilled batch's one pass was made already
   */
  Iterator<Tuple> copies() {
    if (spill != null && spill.deleted) {
      throw new IllegalStateException("these held tuples were spilled and are settled already");
    }
    return new Iterator<>() {
      private final Iterator<AckIdChunk> inMemory = chunks.iterator();
      private final int spilledChunks = spill == null ? 0 : spill.chunks;
      private final FileChannel spilled = spill == null ? null : spill.open();
      private AckIdChunk chunk;
      private int next;

      @Override
      public boolean hasNext() {
        return next < size;
      }

      @Override
      public Tuple next() {
        if (next >= size) {
          throw new NoSuchElementException();
        }
        int slot = next % CHUNK;
        if (slot == 0) {
          chunk = next / CHUNK < spilledChunks ? readSpilled() : inMemory.next();
        }
        Tuple tuple = chunk.kinds[slot] == TupleCopies.WHOLE ? wholeTuples.get(next) : copies.copy(chunk, slot);
        next++;
        if (next == size && spill != null) {
          AckIdSpill.closeQuietly(spilled);
          release();
        }
        return tuple;
      }

      private AckIdChunk readSpilled() {
        try {
          return spill.read(spilled);
        } catch (RuntimeException e) {
          AckIdSpill.closeQuietly(spilled);
          release();
          throw e;
        }
      }
    };
  }
}
