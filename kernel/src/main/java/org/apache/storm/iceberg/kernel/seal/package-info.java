/**
 * Internal to storm-iceberg: not an API, and changed without notice. The seal stage: the built-in seal policies (records, bytes, age, wall clock, open files), the thresholds of the options as policies, the ticks they need, and the checks of both against the topology's message timeout and pending tuples.
 */
package org.apache.storm.iceberg.kernel.seal;
