/**
 * Internal to storm-iceberg: not an API, and changed without notice. The map and write stages: an open batch maps each tuple with the record mapper and writes its row into one open data file per partition (Iceberg's fanout writer), holding the tuple's ack ids, and seals into a {@link org.apache.storm.iceberg.kernel.batch.SealedBatch}: durable, invisible files and the tuples to settle.
 */
package org.apache.storm.iceberg.kernel.batch;
