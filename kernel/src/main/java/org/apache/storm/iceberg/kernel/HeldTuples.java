package org.apache.storm.iceberg.kernel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.AbstractCollection;
import java.util.ArrayDeque;
import java.util.ArrayList;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tuples of a batch, held un-acked until its commit settles, kept as only what acking or failing
 * them needs: source task and stream, the message id's anchor and edge, and the executor's latency
 * sample time ({@link AckIdChunk}). Their values are not kept; the records are already in the
 * batch's files. A tuple costs about 22 bytes here instead of the few hundred its {@link TupleImpl}
 * and values retain. Beyond {@link #MEMORY_CHUNKS} chunks (about 5.5 MiB), the oldest chunks go to
 * a spill file in the task's spill directory, so a batch's heap is its open files plus a constant,
 * however many records it holds. When the file cannot be written, chunks stay on the heap: a full
 * disk costs memory, never a tuple.
 *
 * <p>Iterating yields <b>new</b> value-free {@link TupleImpl}s, one per held tuple, that Storm's
 * {@code OutputCollector.ack}/{@code fail} treat exactly as the originals: same source task, stream,
 * message id and sample time, and an ack value of zero with the original's folded into the edge.
 * Each pass makes new objects, so a caller that anchors an emit to the tuples and then acks them
 * must {@link #materialize} once and use that list for both. A task hook sees these tuples, with
 * every value null.
 *
 * <p>A batch settles its tuples in <b>one pass</b>: the pass that reaches the end deletes the spill
 * file, and a spilled batch cannot be iterated again. Whoever drops a batch, settled or not, calls
 * {@link #release}, which deletes the file if a pass did not. A spill file left by a killed worker
 * holds ids, never values.
 *
 * <p>A tuple that does not fit the compact form (not a {@link TupleImpl}, or anchored to several
 * roots, as a join's output may be) is kept whole, on the heap. Not thread-safe: one task's executor
 * thread owns it.
 */
final class HeldTuples extends AbstractCollection<Tuple> {
  private static final Logger LOG = LoggerFactory.getLogger(HeldTuples.class);
  static final int MEMORY_CHUNKS = 64;
  private static final int CHUNK = AckIdChunk.SIZE;
  private static final byte UNANCHORED = 0;
  private static final byte ONE_ANCHOR = 1;
  private static final byte WHOLE = 2;

  private final int memoryChunks;
  private final Path spillDirectory;
  private final SpillOpener spillOpener;
  private final ArrayDeque<AckIdChunk> chunks = new ArrayDeque<>();
  private final List<Source> sources = new ArrayList<>();
  private final Map<Integer, Tuple> wholeTuples = new HashMap<>();
  private AckIdChunk last;
  private int size;
  private Spill spill;
  private boolean spillBroken;

  /** Keeps at most {@code memoryChunks} chunks on the heap and spills older ones into {@code spillDirectory}. */
  HeldTuples(int memoryChunks, Path spillDirectory) {
    this(memoryChunks, spillDirectory, file -> FileChannel.open(file, StandardOpenOption.WRITE));
  }

  /** As above, opening the spill file with {@code spillOpener}: tests make its writes fail. */
  HeldTuples(int memoryChunks, Path spillDirectory, SpillOpener spillOpener) {
    this.memoryChunks = memoryChunks;
    this.spillDirectory = spillDirectory;
    this.spillOpener = spillOpener;
  }

  /**
   * Checks, when a task starts, that {@code directory} can take spill files: a directory this
   * worker may write into. A disk that fills later only keeps ids on the heap; a directory that is
   * missing from the start is a configuration mistake, and fails the task with the fix.
   *
   * @return the directory
   */
  static Path requireSpillDirectory(Path directory) {
    if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
      throw new IllegalStateException(
          "the spill directory for held ack ids, " + directory + ", is not a writable directory on this worker;"
              + " create it on every worker, or set withSpillDirectory to one that is (the default is the"
              + " worker JVM's java.io.tmpdir)");
    }
    return directory;
  }

  /** Holds {@code tuple} until the batch settles. */
  void hold(Tuple tuple) {
    int slot = size % CHUNK;
    if (slot == 0) {
      if (chunks.size() >= memoryChunks && !spillBroken) {
        spillOldestChunk();
      }
      last = new AckIdChunk();
      chunks.add(last);
    }
    if (!holdCompact(last, slot, tuple)) {
      last.kinds[slot] = WHOLE;
      wholeTuples.put(size, tuple);
    }
    size++;
  }

  /** Moves the oldest chunk to the spill file; when that fails, spilling stops and chunks stay on the heap. */
  private void spillOldestChunk() {
    try {
      if (spill == null) {
        spill = Spill.create(spillDirectory, spillOpener);
      }
      spill.write(chunks.peekFirst());
      chunks.removeFirst();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot spill the ids of held tuples to {}; keeping them on the heap", spillDirectory, Redaction.of(e));
      spillBroken = true;
    }
  }

  private boolean holdCompact(AckIdChunk chunk, int slot, Tuple tuple) {
    if (!(tuple instanceof TupleImpl impl) || impl.getContext() == null) {
      return false;
    }
    int source = sourceIndex(impl);
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

  /** The index in {@link #sources} of the tuple's component and stream, or -1 when a byte cannot hold it. */
  private int sourceIndex(TupleImpl tuple) {
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
    sources.add(new Source(component, stream, tuple.getContext(), Collections.nCopies(tuple.size(), null)));
    return sources.size() - 1;
  }

  /**
   * A component and stream the held tuples came from.
   *
   * @param context the topology context of the first tuple seen from it; every executor has its own
   *     context object, and they agree on everything a copy is asked
   * @param nullValues as many nulls as the stream has fields (TupleImpl may check the count)
   */
  private record Source(String component, String stream, GeneralTopologyContext context, List<Object> nullValues) {
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

  /**
   * New value-free tuples, one per held tuple, in the order they were held; spilled chunks are read
   * back in order.
   *
   * @throws IllegalStateException when a spilled batch is iterated after its pass was completed
   */
  @Override
  public Iterator<Tuple> iterator() {
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
        Tuple tuple = rebuild(chunk, slot, next++);
        if (next == size && spill != null) {
          Spill.closeQuietly(spilled);
          release();
        }
        return tuple;
      }

      private AckIdChunk readSpilled() {
        try {
          return spill.read(spilled);
        } catch (RuntimeException e) {
          Spill.closeQuietly(spilled);
          release();
          throw e;
        }
      }
    };
  }

  @Override
  public String toString() {
    // Not the elements: iterating would use up a spilled batch's one pass.
    return size + " held tuples" + (spill == null ? "" : ", " + spill.chunks + " chunks of them spilled to " + spill.file);
  }

  /** One pass of {@link #iterator}, kept: the same tuple objects to anchor an emit to and then ack. */
  List<Tuple> materialize() {
    return new ArrayList<>(this);
  }

  /** Deletes the spill file, if any: the batch is settled or dropped. */
  void release() {
    if (spill != null) {
      spill.delete();
    }
  }

  private Tuple rebuild(AckIdChunk chunk, int slot, int index) {
    byte kind = chunk.kinds[slot];
    if (kind == WHOLE) {
      return wholeTuples.get(index);
    }
    Source source = sources.get(chunk.sources[slot]);
    // Map.of: Storm only reads the anchors, and makeRootId would build a HashMap per tuple.
    MessageId id = kind == ONE_ANCHOR ? MessageId.makeId(Map.of(chunk.roots[slot], chunk.edges[slot])) : MessageId.makeUnanchored();
    TupleImpl copy =
        new TupleImpl(source.context(), source.nullValues(), source.component(), chunk.tasks[slot], source.stream(), id);
    long sampleStart = chunk.sampleStart(slot);
    if (sampleStart >= 0) {
      copy.setProcessSampleStartTime(sampleStart);
    }
    return copy;
  }

  /** Opens a spill file for writing. */
  interface SpillOpener {
    WritableByteChannel open(Path file) throws IOException;
  }

  /** The chunks spilled so far, oldest first, in one file written once and read once. */
  private static final class Spill {
    final Path file;
    final WritableByteChannel out;
    /**
     * Chunks wholly in the file, read back from its start. A chunk counts only once it is written;
     * a write that fails part-way leaves bytes after the last whole chunk, which stay harmless
     * because spilling then stops for good (nothing is ever written after them).
     */
    int chunks;
    boolean deleted;
    private FileChannel reading;

    private Spill(Path file, WritableByteChannel out) {
      this.file = file;
      this.out = out;
    }

    static Spill create(Path directory, SpillOpener opener) throws IOException {
      Path file = Files.createTempFile(directory, "storm-iceberg-held-", ".bin");
      try {
        return new Spill(file, opener.open(file));
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(file);
        throw e;
      }
    }

    void write(AckIdChunk chunk) throws IOException {
      chunk.writeTo(out);
      chunks++;
    }

    FileChannel open() {
      try {
        reading = FileChannel.open(file, StandardOpenOption.READ);
        return reading;
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read back the spilled ids of held tuples from " + file, e);
      }
    }

    static void closeQuietly(Channel channel) {
      try {
        channel.close();
      } catch (IOException e) {
        // A broken channel: the file goes all the same.
      }
    }

    AckIdChunk read(FileChannel in) {
      try {
        return AckIdChunk.readFrom(in);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read back the spilled ids of held tuples from " + file, e);
      }
    }

    void delete() {
      deleted = true;
      closeQuietly(out);
      if (reading != null) {
        closeQuietly(reading);
      }
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.warn("Cannot delete {}; it holds only ids of settled tuples", file, Redaction.of(e));
      }
    }
  }
}
