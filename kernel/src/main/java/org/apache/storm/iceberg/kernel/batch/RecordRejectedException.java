package org.apache.storm.iceberg.kernel.batch;

import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * A record a batch refused without writing anything (the file writer would refuse it, or its
 * partition cannot be computed): its tuple is failed, or dead-lettered, alone, and the batch is
 * intact. Names the column when one is to blame, null otherwise.
 */
public final class RecordRejectedException extends RecordMappingException {
  RecordRejectedException(String columnPath, String message) {
    super(columnPath, message);
  }

  RecordRejectedException(String columnPath, String message, Throwable cause) {
    super(columnPath, message, cause);
  }
}
