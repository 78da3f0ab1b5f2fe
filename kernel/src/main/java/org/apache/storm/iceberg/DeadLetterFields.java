package org.apache.storm.iceberg;

import org.apache.storm.iceberg.kernel.task.DeadLetters;
import org.apache.storm.tuple.Fields;

/**
 * The fields of the tuples {@link IcebergBolt} and {@link IcebergWriterBolt} emit on their dead-letter
 * stream ({@link IcebergOptions.Builder#withDeadLetterStream}), one per tuple that could not be
 * written, anchored to it. Read them by name: {@code tuple.getStringByField(DeadLetterFields.ERROR)}.
 */
public final class DeadLetterFields {
  /** The tuple's values, as a {@code List<Object>} in its fields' order. */
  public static final String VALUES = DeadLetters.VALUES;
  /** The component that emitted the tuple. */
  public static final String SOURCE_COMPONENT = DeadLetters.SOURCE_COMPONENT;
  /** The stream the tuple came on. */
  public static final String SOURCE_STREAM = DeadLetters.SOURCE_STREAM;
  /** The table the tuple was to be written to, as the catalog names it. */
  public static final String TABLE = DeadLetters.TABLE;
  /** The column (a dotted path for a nested one) that could not be filled, or null when no one column is to blame. */
  public static final String COLUMN = DeadLetters.COLUMN;
  /** What was wrong: the {@link TupleMappingException}'s message, with secrets masked. */
  public static final String ERROR = DeadLetters.ERROR;

  private DeadLetterFields() {}

  /** All of them, in the order of the tuple's values. */
  public static Fields fields() {
    return DeadLetters.fields();
  }
}
