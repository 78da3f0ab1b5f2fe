/**
 * Internal to storm-iceberg: not an API, and changed without notice. What a task gets from Storm at prepare, in the form the stages use: who it is, its collector (redacting what it reports), its clock, its metrics and its topology configuration.
 */
package org.apache.storm.iceberg.kernel.env;
