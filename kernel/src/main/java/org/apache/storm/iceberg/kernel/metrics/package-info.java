/**
 * Internal to storm-iceberg: not an API, and changed without notice. The per-task metrics (Storm metrics v2) every stage counts into.
 */
package org.apache.storm.iceberg.kernel.metrics;
