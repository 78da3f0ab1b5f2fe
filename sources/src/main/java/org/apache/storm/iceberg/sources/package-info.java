/**
 * Source position extractors: the {@code kafka} provider reads the topic, partition and offset that
 * storm-kafka-client's default record translator emits, and a topic's id from the brokers.
 */
package org.apache.storm.iceberg.sources;
