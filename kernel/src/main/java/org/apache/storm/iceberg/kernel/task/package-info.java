/**
 * Internal to storm-iceberg: not an API, and changed without notice. The wiring: what one task of each bolt does, stage by stage (map, write, seal, hold acks, WAL, append, settle, ack), and the only place that builds the stages and hands them to each other. No stage imports this package.
 */
package org.apache.storm.iceberg.kernel.task;
