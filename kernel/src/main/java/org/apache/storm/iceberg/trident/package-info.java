/**
 * Trident states that write into Iceberg, exactly once for transactional and opaque spouts. Two
 * ways: {@link org.apache.storm.iceberg.trident.IcebergStateFactory} with {@link
 * org.apache.storm.iceberg.trident.IcebergStateUpdater} in {@code partitionPersist}, one snapshot
 * per partition and transaction; or {@link org.apache.storm.iceberg.trident.IcebergTrident#persist},
 * one snapshot per transaction for the whole stream.
 */
package org.apache.storm.iceberg.trident;
