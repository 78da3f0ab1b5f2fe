package org.apache.storm.iceberg;

import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;

/**
 * A tuple the record mapper could not convert. The message names the table, the column, what the
 * mapper found wrong, and where the tuple came from (component, stream, message id, fields). The
 * tuple is failed, never dropped.
 */
public class TupleMappingException extends RuntimeException {
  private final String table;
  private final String columnPath;

  public TupleMappingException(String table, Tuple tuple, RuntimeException cause) {
    this(table, (ITuple) tuple, cause);
  }

  /** A tuple that is not a bolt's {@code Tuple}, such as a Trident tuple, names only its fields. */
  public TupleMappingException(String table, ITuple tuple, RuntimeException cause) {
    super(message(table, tuple, cause), cause);
    this.table = table;
    this.columnPath = cause instanceof RecordMappingException ? ((RecordMappingException) cause).columnPath() : null;
  }

  public String table() {
    return table;
  }

  /** The column that could not be filled, or null when the mapper did not say. */
  public String columnPath() {
    return columnPath;
  }

  private static String message(String table, ITuple tuple, RuntimeException cause) {
    String mapperMessage = String.valueOf(cause.getMessage());
    // Name the column unless the mapper's own message already does.
    String column =
        cause instanceof RecordMappingException mapping
                && mapping.columnPath() != null
                && !mapperMessage.contains("'" + mapping.columnPath() + "'")
            ? "column '" + ((RecordMappingException) cause).columnPath() + "': "
            : "";
    return "Cannot map tuple to table "
        + table
        + ": "
        + column
        + mapperMessage
        + " ("
        + origin(tuple)
        + "fields "
        + tuple.getFields()
        + ")";
  }

  private static String origin(ITuple tuple) {
    if (tuple instanceof Tuple boltTuple) {
      return "tuple from component '" + boltTuple.getSourceComponent() + "', stream '" + boltTuple.getSourceStreamId()
          + "', message id " + boltTuple.getMessageId() + ", ";
    }
    return "Trident tuple, ";
  }
}
