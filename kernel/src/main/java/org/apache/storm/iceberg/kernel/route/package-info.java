/**
 * Internal to storm-iceberg: not an API, and changed without notice. Routing one sink's tuples to
 * many tables: the shipped {@code TableRouter}s, the check of a routed name, and the routing task
 * that keeps one per-table sink task for each open table, least recently used first out.
 */
package org.apache.storm.iceberg.kernel.route;
