package org.apache.storm.iceberg.spi;

/**
 * What a {@link SealPolicy} sees of the open batch.
 *
 * @param records records written into the batch's open files
 * @param bytes bytes written so far: Iceberg's writer estimate, refreshed often enough that a batch
 *     seals within about one record of the sink's {@code bytes} threshold
 * @param ageMillis time since the batch's first record, by the task's clock as last read
 * @param openFiles data files the batch has opened (rolled files included)
 * @param partitions partitions the batch spans
 * @param nowMillis the task's clock (epoch milliseconds) as last read, which may be a few records or
 *     one tick interval behind (see {@link SealPolicy}); the batch's first record arrived at {@code
 *     nowMillis - ageMillis}
 */
public record BatchStats(long records, long bytes, long ageMillis, int openFiles, int partitions, long nowMillis) {}
