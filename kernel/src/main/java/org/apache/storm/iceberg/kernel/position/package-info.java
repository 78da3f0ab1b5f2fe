/**
 * Internal to storm-iceberg: not an API, and changed without notice. The source-position stage:
 * which source positions (Kafka offsets, for example) a sink's commits hold, as compact ranges per
 * source partition ({@link org.apache.storm.iceberg.kernel.position.Positions}); how each commit
 * records all of them in its snapshot summary, so the table alone says what is committed; and how
 * a task skips a tuple whose position is already committed or held.
 */
package org.apache.storm.iceberg.kernel.position;
