/**
 * Internal to storm-iceberg: not an API, and changed without notice. The WAL, append and settle stages, shared by every committing task: a WAL entry, one Iceberg append tagged with a fresh commit id, the settling of an error by looking at the table and retrying under the same id, and the deadline no attempt may pass. It knows nothing of Storm tuples: its callers ack.
 */
package org.apache.storm.iceberg.kernel.commit;
