package org.apache.storm.iceberg.spi;

/**
 * Thrown by a {@link RecordMapper} when a tuple cannot be converted. It names the column (as a dotted
 * path for nested fields) so the kernel can report it with the table and the tuple's origin.
 */
public class RecordMappingException extends RuntimeException {
  private final String columnPath;

  public RecordMappingException(String columnPath, String message) {
    super(message);
    this.columnPath = columnPath;
  }

  public RecordMappingException(String columnPath, String message, Throwable cause) {
    super(message, cause);
    this.columnPath = columnPath;
  }

  /** The column the mapper could not fill, for example {@code address.geo.lat}. */
  public String columnPath() {
    return columnPath;
  }
}
