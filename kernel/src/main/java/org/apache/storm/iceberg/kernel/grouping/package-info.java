/**
 * Internal to storm-iceberg: not an API, and changed without notice. The partition-aware grouping's
 * work in the upstream task: following the sink's table (its spec and schema), computing a tuple's
 * Iceberg partition key with the sink's record mapper, and turning the key into a sink task.
 */
package org.apache.storm.iceberg.kernel.grouping;
