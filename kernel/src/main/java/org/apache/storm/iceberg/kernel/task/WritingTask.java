package org.apache.storm.iceberg.kernel.task;

import java.io.Closeable;
import org.apache.storm.tuple.Tuple;

/**
 * What a writing bolt drives, one executor thread at a time: a {@link SinkTask} writing one table,
 * or a routing task writing many through one {@link SinkTask} per table.
 */
public interface WritingTask extends Closeable {
  /** Takes one tuple (or a tick). */
  void execute(Tuple tuple);

  /** Closes the catalogs under a call still running on another thread, leaving the batches alone. */
  void abandon();

  /** Abandons the open batches (their tuples time out and replay) and closes the catalogs. */
  @Override
  void close();
}
