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

import com.google.auto.service.AutoService;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.iceberg.spi.SourcePositionExtractorFactory;

/**
 * Registers {@link KafkaPositions} as {@code "kafka"}. Properties: {@code bootstrap.servers}
 * (required: where the topics' ids are asked), {@code topic-field}, {@code partition-field} and
 * {@code offset-field} (default {@code topic}, {@code partition}, {@code offset}: what KafkaSpout's
 * default record translator emits), {@code identity-timeout-ms} (default 10000), and any property
 * prefixed {@code admin.}, passed without the prefix to Kafka's admin client (security settings,
 * for example).
 */
@AutoService(SourcePositionExtractorFactory.class)
public class KafkaPositionsFactory implements SourcePositionExtractorFactory {
  public static final String NAME = "kafka";
  static final String ADMIN_PREFIX = "admin.";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SourcePositionExtractor create(Map<String, String> properties) {
    Map<String, String> own = new HashMap<>();
    Map<String, String> admin = new HashMap<>();
    properties.forEach((key, value) -> {
      if (key.startsWith(ADMIN_PREFIX)) {
        admin.put(key.substring(ADMIN_PREFIX.length()), value);
      } else {
        own.put(key, value);
      }
    });
    ProviderProperties.check("source positions 'kafka'", own, Set.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG),
        Set.of("topic-field", "partition-field", "offset-field", "identity-timeout-ms"));
    admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, own.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    long timeout;
    try {
      timeout = Long.parseLong(own.getOrDefault("identity-timeout-ms", "10000"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("source positions 'kafka': identity-timeout-ms must be a number of milliseconds, got '"
          + own.get("identity-timeout-ms") + "'");
    }
    return new KafkaPositions(own.getOrDefault("topic-field", "topic"), own.getOrDefault("partition-field", "partition"),
        own.getOrDefault("offset-field", "offset"), admin, timeout);
  }
}
