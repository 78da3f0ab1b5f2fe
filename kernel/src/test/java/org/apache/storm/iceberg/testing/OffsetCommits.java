/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */

package org.apache.storm.iceberg.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The offset commits a consumer group's consumers made, and whether they closed, recorded by a
 * consumer interceptor ({@code interceptor.classes}) under the group id. A test uses it to learn
 * which offsets a spout had committed by a given moment, and when a killed spout's consumer is
 * closed (after its last commit).
 */
public final class OffsetCommits {
  private static final Map<String, OffsetCommits> BY_GROUP = new ConcurrentHashMap<>();

  /** Each commit, in order: the offsets committed (the next offset to read, per partition). */
  public final List<Map<TopicPartition, Long>> commits = new CopyOnWriteArrayList<>();
  /** How many consumers of the group closed. */
  public final java.util.concurrent.atomic.AtomicInteger closed = new java.util.concurrent.atomic.AtomicInteger();

  private OffsetCommits() {}

  public static OffsetCommits of(String group) {
    return BY_GROUP.computeIfAbsent(group, g -> new OffsetCommits());
  }

  /** The offsets of every commit so far, merged: what the group holds now (absent: never committed). */
  public Map<TopicPartition, Long> committed() {
    Map<TopicPartition, Long> merged = new HashMap<>();
    commits.forEach(merged::putAll);
    return merged;
  }

  /** The interceptor a consumer loads by class name; it finds its record by the consumer's group id. */
  public static final class Interceptor implements ConsumerInterceptor<Object, Object> {
    private OffsetCommits record;

    @Override
    public void configure(Map<String, ?> configs) {
      record = of(String.valueOf(configs.get(ConsumerConfig.GROUP_ID_CONFIG)));
    }

    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
      return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
      Map<TopicPartition, Long> commit = new HashMap<>();
      offsets.forEach((partition, offset) -> commit.put(partition, offset.offset()));
      record.commits.add(Map.copyOf(commit));
    }

    @Override
    public void close() {
      record.closed.incrementAndGet();
    }
  }
}
