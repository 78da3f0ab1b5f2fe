package org.apache.storm.iceberg.spi;

/**
 * What a {@link SealPolicy} sees of the open batch.
 *
 * @param records records written into the batch's open files
 * @param bytes bytes written so far (Iceberg's writer estimate, refreshed every few records)
 * @param ageMillis time since the batch's first record
 * @param openFiles data files open for the batch
 * @param partitions partitions the batch spans
 */
public record BatchStats(long records, long bytes, long ageMillis, int openFiles, int partitions) {
  public static final BatchStats EMPTY = new BatchStats(0, 0, 0, 0, 0);
}
