package org.apache.storm.iceberg.spi;

/**
 * What a {@link SealPolicy} sees of the open batch.
 *
 * @param records records written into the batch's open files
 * @param bytes bytes written so far: Iceberg's writer estimate, refreshed on the first record, then
 *     at least every 1000 records, and more often as the batch nears the sink's {@code bytes}
 *     threshold, so a batch seals within about one record of it
 * @param ageMillis time since the batch's first record
 * @param openFiles data files the batch has opened (rolled files included)
 * @param partitions partitions the batch spans
 * @param nowMillis the task's clock (epoch milliseconds) as last read: after this record, or, in a
 *     task receiving tick tuples, on the last tick, at the batch's opening or within the last 16
 *     records (see {@link SealPolicy}); the batch's first record arrived at {@code nowMillis -
 *     ageMillis}
 */
public record BatchStats(long records, long bytes, long ageMillis, int openFiles, int partitions, long nowMillis) {}
