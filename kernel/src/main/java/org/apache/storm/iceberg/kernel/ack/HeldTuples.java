package org.apache.storm.iceberg.kernel.ack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.tuple.Tuple;

/**
 * The tuples of one batch, held un-acked until the batch settles: hold each one as it is written,
 * then settle them all, once, by {@link #ackAll ack} or by {@link #failAll fail}. Whoever drops a
 * holder, settled or not, calls {@link #release}.
 *
 * <p>The tuples settled may be value-free copies of the ones held ({@link #compact}): same source
 * task, stream, message id and latency sample time, which is all Storm's acker, spout and metrics
 * read. A task hook sees the copies, with every value null.
 *
 * <p>Not thread-safe: one task's executor thread owns a holder.
 */
public interface HeldTuples {
  /** How many tuples a {@link #compact} holder keeps on the heap before it spills the oldest ids. */
  int COMPACT_TUPLES_ON_HEAP = CompactHeldTuples.MEMORY_CHUNKS * AckIdChunk.SIZE;

  /**
   * A holder that keeps only each tuple's ack ids, and spills the oldest into a file in {@code
   * spillDirectory} beyond {@link #COMPACT_TUPLES_ON_HEAP}; a file it cannot write leaves the ids on
   * the heap. It settles through value-free copies.
   */
  static HeldTuples compact(Path spillDirectory) {
    return new CompactHeldTuples(CompactHeldTuples.MEMORY_CHUNKS, spillDirectory);
  }

  /** A holder of {@code tuples} themselves, as they are: for a few tuples whose values are small. */
  static HeldTuples whole(Collection<? extends Tuple> tuples) {
    return new WholeTuples(tuples);
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
  void hold(Tuple tuple);

  /** The number of tuples held. */
  int size();

  /**
   * The tuples this holder settles from now on, in the order held: anchor an emit to them, then
   * {@link #ackAll ack} them, so that the acks carry the ack values the emit gave them. Calling it
   * again returns the same list. It keeps every copy on the heap at once; settle without it when
   * nothing is emitted.
   *
   * @throws IllegalStateException when the tuples are settled already
   */
  List<Tuple> materialize();

  /**
   * Acks every tuple through {@code collector}, in the order held.
   *
   * @throws IllegalStateException when the tuples are settled already: a tuple acked twice would
   *     undo its first ack in the acker's ledger
   */
  void ackAll(IOutputCollector collector);

  /**
   * Fails every tuple through {@code collector}, in the order held; the source replays them.
   *
   * @throws IllegalStateException when the tuples are settled already
   */
  void failAll(IOutputCollector collector);

  /** Frees what the holder keeps outside the heap (a spill file); call it once the batch is settled or dropped. */
  void release();
}
