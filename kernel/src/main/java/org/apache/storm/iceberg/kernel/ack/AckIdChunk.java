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

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;

/**
 * Up to {@link #SIZE} held tuples' ack identities, column by column (about 22 bytes a tuple), so no
 * array is ever copied to grow; written to and read back from a spill file whole. The meaning of
 * each column is {@link TupleCopies}'s.
 */
final class AckIdChunk {
  static final int SIZE = 4096;
  /** Bytes of the fixed columns in a spill file: kinds, sources, tasks, roots, edges. */
  private static final int COLUMNS_BYTES = SIZE * (2 * Byte.BYTES + Integer.BYTES + 2 * Long.BYTES);
  private static final int SAMPLE_BYTES = Integer.BYTES + Long.BYTES;

  final byte[] kinds = new byte[SIZE];
  final byte[] sources = new byte[SIZE];
  final int[] tasks = new int[SIZE];
  final long[] roots = new long[SIZE];
  final long[] edges = new long[SIZE];
  // The executor samples a few tuples for latency statistics; only those carry a start time.
  private int[] sampledSlots = new int[0];
  private long[] sampleStarts = new long[0];
  private int samples;

  void addSample(int slot, long startMillis) {
    if (samples == sampledSlots.length) {
      int grown = Math.max(8, samples * 2);
      sampledSlots = Arrays.copyOf(sampledSlots, grown);
      sampleStarts = Arrays.copyOf(sampleStarts, grown);
    }
    sampledSlots[samples] = slot;
    sampleStarts[samples] = startMillis;
    samples++;
  }

  /** The sample start time of the tuple in {@code slot}, or -1 when it was not sampled. */
  long sampleStart(int slot) {
    int found = Arrays.binarySearch(sampledSlots, 0, samples, slot);
    return found >= 0 ? sampleStarts[found] : -1;
  }

  /**
   * Writes the chunk whole to {@code out}: each column in one bulk copy, so spilling costs a few
   * nanoseconds a tuple, not a stream call per field. Native byte order: a spill file is read back
   * only by the process that wrote it. Layout: kinds, sources, tasks, roots, edges, then the sample
   * count and each sample's slot and start time.
   */
  void writeTo(WritableByteChannel out) throws IOException {
    ByteBuffer buffer = nativeBuffer(COLUMNS_BYTES + Integer.BYTES + samples * SAMPLE_BYTES);
    buffer.put(kinds).put(sources);
    buffer.asIntBuffer().put(tasks);
    skip(buffer, SIZE * Integer.BYTES);
    buffer.asLongBuffer().put(roots);
    skip(buffer, SIZE * Long.BYTES);
    buffer.asLongBuffer().put(edges);
    skip(buffer, SIZE * Long.BYTES);
    buffer.putInt(samples);
    for (int i = 0; i < samples; i++) {
      buffer.putInt(sampledSlots[i]).putLong(sampleStarts[i]);
    }
    buffer.flip();
    while (buffer.hasRemaining()) {
      out.write(buffer);
    }
  }

  /**
   * Reads back a chunk {@link #writeTo} wrote.
   *
   * @throws EOFException when the channel ends inside the chunk
   */
  static AckIdChunk readFrom(ReadableByteChannel in) throws IOException {
    AckIdChunk chunk = new AckIdChunk();
    ByteBuffer fixedPart = readFully(in, COLUMNS_BYTES + Integer.BYTES);
    fixedPart.get(chunk.kinds).get(chunk.sources);
    fixedPart.asIntBuffer().get(chunk.tasks);
    skip(fixedPart, SIZE * Integer.BYTES);
    fixedPart.asLongBuffer().get(chunk.roots);
    skip(fixedPart, SIZE * Long.BYTES);
    fixedPart.asLongBuffer().get(chunk.edges);
    skip(fixedPart, SIZE * Long.BYTES);
    int sampleCount = fixedPart.getInt();
    ByteBuffer sampleBytes = readFully(in, sampleCount * SAMPLE_BYTES);
    for (int i = 0; i < sampleCount; i++) {
      chunk.addSample(sampleBytes.getInt(), sampleBytes.getLong());
    }
    return chunk;
  }

  private static ByteBuffer nativeBuffer(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
  }

  /** Moves past what a bulk copy through a view buffer filled or read (views keep their own position). */
  private static void skip(ByteBuffer buffer, int bytes) {
    buffer.position(buffer.position() + bytes);
  }

  private static ByteBuffer readFully(ReadableByteChannel in, int bytes) throws IOException {
    ByteBuffer buffer = nativeBuffer(bytes);
    while (buffer.hasRemaining()) {
      if (in.read(buffer) < 0) {
        throw new EOFException("a spilled chunk ends after " + buffer.position() + " of its " + bytes + " bytes");
      }
    }
    return buffer.flip();
  }
}
