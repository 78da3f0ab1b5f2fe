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

package org.apache.storm.iceberg.sources;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.iceberg.spi.SourcePosition;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.ITuple;

/**
 * The position of a tuple that storm-kafka-client's {@code KafkaSpout} emitted: its record's topic,
 * partition and offset, read from the fields its default {@code RecordTranslator} emits ({@code
 * topic}, {@code partition}, {@code offset}) or from the fields named in the properties. A topic's
 * identity is its topic id, asked of the brokers with Kafka's admin client the first time a task
 * sees the topic: a topic deleted and created again gets a new id.
 */
final class KafkaPositions implements SourcePositionExtractor {
  private static final long serialVersionUID = 1L;

  private final String topicField;
  private final String partitionField;
  private final String offsetField;
  private final Map<String, String> adminProperties;
  private final long identityTimeoutMillis;
  private transient Fields lastFields;
  private transient int[] lastIndexes;

  KafkaPositions(
      String topicField, String partitionField, String offsetField, Map<String, String> adminProperties, long identityTimeoutMillis) {
    this.topicField = topicField;
    this.partitionField = partitionField;
    this.offsetField = offsetField;
    this.adminProperties = Map.copyOf(adminProperties);
    this.identityTimeoutMillis = identityTimeoutMillis;
  }

  @Override
  public SourcePosition position(ITuple tuple) {
    int[] indexes = indexes(tuple.getFields());
    if (indexes == null) {
      return null;
    }
    Object topic = tuple.getValue(indexes[0]);
    Object partition = tuple.getValue(indexes[1]);
    Object offset = tuple.getValue(indexes[2]);
    if (!(topic instanceof String) || !(partition instanceof Integer) || !(offset instanceof Long)) {
      String field = !(topic instanceof String) ? topicField : !(partition instanceof Integer) ? partitionField : offsetField;
      Object value = tuple.getValue(tuple.getFields().fieldIndex(field));
      throw new RecordMappingException(field,
          "Kafka position field '" + field + "' holds " + (value == null ? "null" : value.getClass().getName())
              + "; expected the topic as String, the partition as Integer and the offset as Long, as KafkaSpout's"
              + " default record translator emits them");
    }
    return new SourcePosition((String) topic, (Integer) partition, (Long) offset);
  }

  /** The indexes of the three fields in this layout, or null when it lacks one; looked up once per layout. */
  private int[] indexes(Fields fields) {
    if (fields != lastFields && !fields.equals(lastFields)) {
      lastIndexes = fields.contains(topicField) && fields.contains(partitionField) && fields.contains(offsetField)
          ? new int[] {fields.fieldIndex(topicField), fields.fieldIndex(partitionField), fields.fieldIndex(offsetField)}
          : null;
      lastFields = fields;
    }
    return lastIndexes;
  }

  @Override
  public String sourceIdentity(String topic) {
    Properties properties = new Properties();
    properties.putAll(adminProperties);
    properties.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "storm-iceberg-topic-ids");
    try (Admin admin = Admin.create(properties)) {
      TopicDescription description =
          admin.describeTopics(List.of(topic)).allTopicNames().get(identityTimeoutMillis, TimeUnit.MILLISECONDS).get(topic);
      return description.topicId().toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while asking Kafka for the id of topic " + topic, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "Cannot ask Kafka (" + adminProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) + ") for the id of topic "
              + topic + ": " + e.getMessage() + "; the tuple is failed and replays, and the topic is asked again", e);
    }
  }

  @Override
  public List<String> partitionFields() {
    return List.of(topicField, partitionField);
  }
}
