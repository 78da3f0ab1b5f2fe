package org.apache.storm.iceberg.spi;

import org.apache.iceberg.Schema;
import org.apache.storm.tuple.ITuple;

/**
 * A {@link RecordMapper} that can also build rows in Iceberg's internal representation ({@link
 * InternalRow}), which formats with an internal-row writer (Parquet) encode without first building
 * and then unpicking a {@code java.time} object per date, time and timestamp value.
 *
 * <p>The kernel calls {@link #mapInternal} instead of {@link #map} for every batch written in such a
 * format, and {@link #map} otherwise; both must accept and refuse the same tuples, with the same
 * messages, and describe the same row. Everything else in the {@link RecordMapper} contract holds:
 * the row is written before the next tuple is mapped and is not kept, so one row may be overwritten
 * and returned on every call.
 */
public interface InternalRowMapper extends RecordMapper {
  /**
   * The tuple as a row of {@code schema.asStruct()}, in Iceberg's internal representation.
   *
   * @throws RecordMappingException naming the column, when the tuple cannot be converted
   */
  InternalRow mapInternal(ITuple tuple, Schema schema);
}
