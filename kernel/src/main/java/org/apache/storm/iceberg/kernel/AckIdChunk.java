package org.apache.storm.iceberg.kernel;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * Up to {@link #SIZE} held tuples' ack identities, column by column (about 22 bytes a tuple), so no
 * array is ever copied to grow; written to and read back from a spill file whole. The meaning of
 * each column is {@link HeldTuples}'s.
 */
final class AckIdChunk {
  static final int SIZE = 4096;

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

  void writeTo(DataOutputStream out) throws IOException {
    out.write(kinds);
    out.write(sources);
    for (int slot = 0; slot < SIZE; slot++) {
      out.writeInt(tasks[slot]);
      out.writeLong(roots[slot]);
      out.writeLong(edges[slot]);
    }
    out.writeInt(samples);
    for (int i = 0; i < samples; i++) {
      out.writeInt(sampledSlots[i]);
      out.writeLong(sampleStarts[i]);
    }
  }

  static AckIdChunk readFrom(DataInputStream in) throws IOException {
    AckIdChunk chunk = new AckIdChunk();
    in.readFully(chunk.kinds);
    in.readFully(chunk.sources);
    for (int slot = 0; slot < SIZE; slot++) {
      chunk.tasks[slot] = in.readInt();
      chunk.roots[slot] = in.readLong();
      chunk.edges[slot] = in.readLong();
    }
    int count = in.readInt();
    for (int i = 0; i < count; i++) {
      chunk.addSample(in.readInt(), in.readLong());
    }
    return chunk;
  }
}
