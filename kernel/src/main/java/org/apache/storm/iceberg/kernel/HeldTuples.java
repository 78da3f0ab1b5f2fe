package org.apache.storm.iceberg.kernel;

import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * The tuples of a batch, held un-acked until its commit settles, kept as only what acking or failing
 * them needs: source task and stream, the message id's anchor and edge, and the executor's latency
 * sample time. Their values are not kept; the records are already in the batch's files. A tuple
 * costs about 22 bytes here instead of the few hundred its {@link TupleImpl} and values retain, so a
 * batch's heap is its open files plus this ledger.
 *
 * <p>Iterating yields <b>new</b> value-free {@link TupleImpl}s, one per held tuple, that Storm's
 * {@code OutputCollector.ack}/{@code fail} treat exactly as the originals: same source task, stream,
 * message id and sample time, and an ack value of zero with the original's folded into the edge.
 * Each pass makes new objects, so a caller that anchors an emit to the tuples and then acks them
 * must {@link #materialize} once and use that list for both. A task hook sees these tuples, with
 * every value null.
 *
 * <p>A tuple that does not fit the compact form (not a {@link TupleImpl}, several anchors, or from
 * another topology context) is kept whole. Not thread-safe: one task's executor thread owns it.
 */
final class HeldTuples extends AbstractCollection<Tuple> {
  private static final int CHUNK = 4096;
  private static final byte UNANCHORED = 0;
  private static final byte ONE_ANCHOR = 1;
  private static final byte WHOLE = 2;

  private final List<Chunk> chunks = new ArrayList<>();
  private final List<Source> sources = new ArrayList<>();
  private final Map<Integer, Tuple> wholeTuples = new HashMap<>();
  private GeneralTopologyContext context;
  private Chunk last;
  private int size;

  /** Holds {@code tuple} until the batch settles. */
  void hold(Tuple tuple) {
    int slot = size % CHUNK;
    if (slot == 0) {
      last = new Chunk();
      chunks.add(last);
    }
    Chunk chunk = last;
    if (!holdCompact(chunk, slot, tuple)) {
      chunk.kinds[slot] = WHOLE;
      wholeTuples.put(size, tuple);
    }
    size++;
  }

  private boolean holdCompact(Chunk chunk, int slot, Tuple tuple) {
    if (!(tuple instanceof TupleImpl impl) || !sameContext(impl.getContext())) {
      return false;
    }
    int source = sourceIndex(tuple);
    Map<Long, Long> anchors = tuple.getMessageId().getAnchorsToIds();
    if (source < 0 || anchors.size() > 1) {
      return false;
    }
    if (anchors.isEmpty()) {
      chunk.kinds[slot] = UNANCHORED;
    } else {
      Map.Entry<Long, Long> anchor = anchors.entrySet().iterator().next();
      chunk.kinds[slot] = ONE_ANCHOR;
      chunk.roots[slot] = anchor.getKey();
      // Storm acks with edge XOR ack value; the copy's ack value is zero, so fold it in here.
      chunk.edges[slot] = anchor.getValue() ^ impl.getAckVal();
    }
    chunk.tasks[slot] = tuple.getSourceTask();
    chunk.sources[slot] = (byte) source;
    Long sampleStart = impl.getProcessSampleStartTime();
    if (sampleStart != null) {
      chunk.addSample(slot, sampleStart);
    }
    return true;
  }

  private boolean sameContext(GeneralTopologyContext tupleContext) {
    if (context == null) {
      context = tupleContext;
    }
    return tupleContext != null && tupleContext == context;
  }

  /** The index in {@link #sources} of the tuple's component and stream, or -1 when a byte cannot hold it. */
  private int sourceIndex(Tuple tuple) {
    String component = tuple.getSourceComponent();
    String stream = tuple.getSourceStreamId();
    for (int i = 0; i < sources.size(); i++) {
      if (sources.get(i).is(component, stream)) {
        return i;
      }
    }
    if (sources.size() > Byte.MAX_VALUE) {
      return -1;
    }
    sources.add(new Source(component, stream, Collections.nCopies(tuple.size(), null)));
    return sources.size() - 1;
  }

  /**
   * A component and stream the held tuples came from.
   *
   * @param nullValues as many nulls as the stream has fields (TupleImpl may check the count)
   */
  private record Source(String component, String stream, List<Object> nullValues) {
    boolean is(String otherComponent, String otherStream) {
      // The worker hands every tuple of a stream the same strings, so identity almost always decides.
      return (component == otherComponent || component.equals(otherComponent))
          && (stream == otherStream || stream.equals(otherStream));
    }
  }

  @Override
  public int size() {
    return size;
  }

  /** New value-free tuples, one per held tuple, in the order they were held. */
  @Override
  public Iterator<Tuple> iterator() {
    return new Iterator<>() {
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
        return rebuild(next++);
      }
    };
  }

  /** One pass of {@link #iterator}, kept: the same tuple objects to anchor an emit to and then ack. */
  List<Tuple> materialize() {
    return new ArrayList<>(this);
  }

  private Tuple rebuild(int index) {
    Chunk chunk = chunks.get(index / CHUNK);
    int slot = index % CHUNK;
    byte kind = chunk.kinds[slot];
    if (kind == WHOLE) {
      return wholeTuples.get(index);
    }
    Source source = sources.get(chunk.sources[slot]);
    // Map.of: Storm only reads the anchors, and makeRootId would build a HashMap per tuple.
    MessageId id = kind == ONE_ANCHOR ? MessageId.makeId(Map.of(chunk.roots[slot], chunk.edges[slot])) : MessageId.makeUnanchored();
    TupleImpl copy =
        new TupleImpl(context, source.nullValues(), source.component(), chunk.tasks[slot], source.stream(), id);
    long sampleStart = chunk.sampleStart(slot);
    if (sampleStart >= 0) {
      copy.setProcessSampleStartTime(sampleStart);
    }
    return copy;
  }

  /** Up to {@link #CHUNK} held tuples, column by column, so no array is ever copied to grow. */
  private static final class Chunk {
    final byte[] kinds = new byte[CHUNK];
    final byte[] sources = new byte[CHUNK];
    final int[] tasks = new int[CHUNK];
    final long[] roots = new long[CHUNK];
    final long[] edges = new long[CHUNK];
    // The executor samples a few tuples for latency statistics; only those carry a start time.
    int[] sampledSlots = new int[0];
    long[] sampleStarts = new long[0];
    int samples;

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
  }
}
