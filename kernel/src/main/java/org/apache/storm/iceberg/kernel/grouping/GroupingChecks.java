package org.apache.storm.iceberg.kernel.grouping;

import java.util.List;
import org.apache.storm.iceberg.kernel.options.SinkSettings;

/** What the partition-aware grouping refuses, on the submitting client and again when prepared. */
public final class GroupingChecks {
  private GroupingChecks() {}

  /**
   * Refuses options that write with source positions (Kafka exactly-once): those need each source
   * partition on one sink task, and a grouping by the table's partition sends one Kafka partition's
   * records to many tasks.
   *
   * @throws IllegalArgumentException naming the grouping to use instead
   */
  public static void refuseSourcePositions(SinkSettings settings, ClassLoader loader) {
    SinkSettings.SourcePositions positions = settings.sourcePositions();
    if (positions == null) {
      return;
    }
    List<String> partitionFields = positions.extractor().resolve(loader).partitionFields();
    throw new IllegalArgumentException(
        "IcebergPartitionGrouping cannot feed a sink of " + settings.target().table() + " that writes with source positions"
            + " (withSourcePositions): it sends each tuple to the task of its Iceberg partition, so one source partition"
            + " reaches several tasks, while source positions need each source partition on one task. Use"
            + " fieldsGrouping(<spout>, new Fields("
            + String.join(", ", partitionFields.stream().map(field -> "\"" + field + "\"").toList())
            + ")) instead, or drop withSourcePositions for at-least-once delivery");
  }

  /** @throws IllegalArgumentException unless {@code tasksPerPartition} and the interval are positive */
  public static void requirePositive(int tasksPerPartition, long refreshIntervalMillis) {
    if (tasksPerPartition < 1) {
      throw new IllegalArgumentException(
          "tasksPerPartition is " + tasksPerPartition + "; give 1 to send each partition to one task, or more to spread it");
    }
    if (refreshIntervalMillis < 1) {
      throw new IllegalArgumentException(
          "refreshIntervalMillis is " + refreshIntervalMillis + "; give a positive interval (the default is 10000 ms)");
    }
  }
}
