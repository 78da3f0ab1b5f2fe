package org.apache.storm.iceberg.kernel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.tuple.Tuple;

/**
 * One batch being written: open data files (one per partition, through Iceberg's fanout writer, all
 * against the one table metadata version the batch was opened with) and the tuples they hold, not
 * yet acked. Records go straight to the file writers; of each tuple only its ack identity is kept
 * ({@link HeldTuples}).
 *
 * <p>Not thread-safe: one task's executor thread owns it.
 */
final class OpenBatch {
  /** Byte estimates walk every open file's buffers, so they are refreshed every this many records. */
  static final int BYTES_REFRESH_RECORDS = 100;

  private final Schema schema;
  private final PartitionSpec spec;
  private final TrackingWriterFactory files;
  private final FanoutDataWriter<Record> writer;
  private final PartitionKey partitionKey;
  private final InternalRecordWrapper partitionSource;
  private final HeldTuples tuples = new HeldTuples();
  private final long openedAtMillis;
  private long records;
  private long bytes;

  OpenBatch(Table table, FileFormatWriter format, int partitionId, long taskId, long nowMillis) {
    this.schema = table.schema();
    this.spec = table.spec();
    FileFormat fileFormat = format.format();
    this.files = new TrackingWriterFactory(format.writerFactory(table, schema));
    OutputFileFactory fileFactory =
        OutputFileFactory.builderFor(table, partitionId, taskId)
            .format(fileFormat)
            .operationId(UUID.randomUUID().toString())
            .build();
    long targetFileSize =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    this.writer = new FanoutDataWriter<>(files, fileFactory, table.io(), targetFileSize);
    this.partitionKey = new PartitionKey(spec, schema);
    this.partitionSource = new InternalRecordWrapper(schema.asStruct());
    this.openedAtMillis = nowMillis;
  }

  /** The schema records of this batch must have. */
  Schema schema() {
    return schema;
  }

  /**
   * Writes the record into its partition's open file and holds the tuple until the batch settles.
   *
   * @throws RecordRejectedException when the record's partition cannot be computed (a value of the
   *     wrong Java type for a partition source column); nothing was written and the batch is intact
   * @throws RuntimeException any other failure: the batch is broken and must be abandoned, and the
   *     tuple is not held by it
   */
  void write(Record record, Tuple tuple) {
    try {
      partitionKey.partition(partitionSource.wrap(record));
    } catch (RuntimeException e) {
      throw new RecordRejectedException("cannot compute the partition of the record: " + e, e);
    }
    writer.write(record, spec, partitionKey);
    records++;
    if (records % BYTES_REFRESH_RECORDS == 0) {
      bytes = files.bytesWritten();
    }
    tuples.hold(tuple);
  }

  /** A record the batch refused without writing anything: fail its tuple alone. */
  static final class RecordRejectedException extends RuntimeException {
    RecordRejectedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  long openedAtMillis() {
    return openedAtMillis;
  }

  boolean isEmpty() {
    return records == 0;
  }

  BatchStats stats(long nowMillis) {
    return new BatchStats(
        records, bytes, nowMillis - openedAtMillis, files.filesOpened(), files.partitions(), nowMillis);
  }

  /** Closes every open file: they become durable and stay invisible until committed. */
  SealedBatch seal() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the batch's data files", e);
    }
    List<DataFile> dataFiles = writer.result().dataFiles();
    return new SealedBatch(dataFiles, tuples, records);
  }

  /**
   * Closes every file the batch opened, each on its own so one failing close cannot leave the
   * others' streams open; the tuples are the caller's to fail. The files become orphans.
   */
  HeldTuples abandon() {
    files.closeAllQuietly();
    return tuples;
  }
}
