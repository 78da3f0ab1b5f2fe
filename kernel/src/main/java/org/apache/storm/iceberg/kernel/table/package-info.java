/**
 * Internal to storm-iceberg: not an API, and changed without notice. Opening the sink's table at prepare (building the catalog, loading or creating the table, refusing what cannot be written safely), and following it while the task runs: dropped, recreated, or reached through a catalog without atomic commits across processes.
 */
package org.apache.storm.iceberg.kernel.table;
