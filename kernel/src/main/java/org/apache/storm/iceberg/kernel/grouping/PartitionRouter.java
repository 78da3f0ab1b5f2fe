package org.apache.storm.iceberg.kernel.grouping;

import java.util.List;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.tuple.Fields;

/**
 * Chooses the sink task for each tuple one upstream task emits: the task its Iceberg partition key
 * hashes to, among the sink's tasks in Storm's order, as a fields grouping does for its fields. Every
 * upstream task computes the same key for the same row, so each partition reaches one task, or, with
 * {@code tasksPerPartition} k above 1, the k tasks from that one on, in turn.
 *
 * <p>A tuple the mapper refuses goes to the first task (the sink fails it, or sends it to its
 * dead-letter stream). While the table cannot be loaded, and while it is unpartitioned, tuples go to
 * the tasks in turn, as a shuffle sends them. Used from one thread, as Storm calls a grouping.
 */
public final class PartitionRouter {
  private final List<Integer>[] single;
  private final int tasksPerPartition;
  private final ValuesTuple view;
  private final TableFollower table;
  private int turn;
  private int spread;

  /**
   * Loads the table now.
   *
   * @param fields the fields of the stream being grouped
   * @param targetTasks the sink's tasks, as Storm hands them to the grouping
   */
  @SuppressWarnings("unchecked")
  public PartitionRouter(
      SinkSettings settings, Fields fields, List<Integer> targetTasks, int tasksPerPartition, long refreshIntervalMillis,
      ClassLoader loader) {
    this.single = new List[targetTasks.size()];
    for (int i = 0; i < single.length; i++) {
      single[i] = List.of(targetTasks.get(i));
    }
    this.tasksPerPartition = Math.min(tasksPerPartition, single.length);
    this.view = new ValuesTuple(fields);
    this.table =
        new TableFollower(settings.target(), settings.providers().recordMapper().resolve(loader), refreshIntervalMillis);
    table.start();
  }

  /** The one task {@code values} go to. */
  public List<Integer> route(List<Object> values) {
    PartitionHasher hasher = table.hasher();
    if (hasher == null) {
      turn = turn + 1 == single.length ? 0 : turn + 1;
      return single[turn];
    }
    int hash;
    try {
      hash = hasher.hash(view.of(values));
    } catch (RuntimeException refused) {
      return single[0];
    }
    int index = Math.floorMod(hash, single.length);
    if (tasksPerPartition > 1) {
      spread = spread + 1 == tasksPerPartition ? 0 : spread + 1;
      index = (index + spread) % single.length;
    }
    return single[index];
  }
}
