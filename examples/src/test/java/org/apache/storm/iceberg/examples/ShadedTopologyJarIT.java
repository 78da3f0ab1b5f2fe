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

package org.apache.storm.iceberg.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The shaded topology jar `storm jar` takes (built in the package phase, checked in
 * integration-test): every plug-in's service registration survives shading, the examples' entry
 * points and Flux are inside, and nothing a Storm worker provides is.
 */
class ShadedTopologyJarIT {
  static Path jar() throws IOException {
    try (var files = Files.list(Paths.get("target"))) {
      return files.filter(p -> p.getFileName().toString().endsWith("-topology.jar")).findFirst().orElseThrow();
    }
  }

  static List<String> services(JarFile jar, String kind) throws IOException {
    var entry = jar.getEntry("META-INF/services/org.apache.storm.iceberg.spi." + kind);
    assertThat(entry).as(kind + " registrations").isNotNull();
    String text = new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    return text.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toList());
  }

  @Test
  void everyPlugInSurvivesShading() throws IOException {
    try (JarFile jar = new JarFile(jar().toFile())) {
      assertThat(services(jar, "RecordMapperFactory")).containsExactlyInAnyOrder(
          "org.apache.storm.iceberg.mappers.FieldNameRecordMapperFactory",
          "org.apache.storm.iceberg.mappers.JsonRecordMapperFactory",
          "org.apache.storm.iceberg.examples.plugin.UpperCaseRecordMapperFactory");
      assertThat(services(jar, "SealPolicyFactory")).hasSize(6).contains(
          "org.apache.storm.iceberg.kernel.seal.OpenFilesSealPolicy$Factory",
          "org.apache.storm.iceberg.examples.plugin.EveryNRecordsSealPolicyFactory");
      assertThat(services(jar, "WalStoreFactory")).hasSize(2);
      assertThat(services(jar, "FileFormatWriterFactory")).hasSize(3);
    }
  }

  @Test
  void theExamplesAndFluxAreInsideAndStormAndHadoopAreNot() throws IOException {
    try (JarFile jar = new JarFile(jar().toFile())) {
      assertThat(jar.getEntry("org/apache/storm/iceberg/examples/IcebergSplitSinkExampleTopology.class")).isNotNull();
      assertThat(jar.getEntry("org/apache/storm/flux/Flux.class")).isNotNull();
      assertThat(jar.getEntry("flux/iceberg-bolt.yaml")).isNotNull();
      // A Kafka topology ships the Kafka client: the workers have none.
      assertThat(jar.getEntry("org/apache/storm/kafka/spout/KafkaSpout.class")).as("storm-kafka-client").isNotNull();
      assertThat(jar.getEntry("org/apache/kafka/clients/consumer/KafkaConsumer.class")).as("kafka-clients").isNotNull();
      assertThat(jar.getEntry("org/apache/storm/iceberg/sources/KafkaPositions.class")).as("the kafka source positions").isNotNull();
      assertThat(jar.getEntry("kafka/server/KafkaConfig.class")).as("the Kafka broker is the tests' only").isNull();
      assertThat(jar.getEntry("org/apache/storm/topology/TopologyBuilder.class")).as("Storm is the worker's").isNull();
      assertThat(jar.getEntry("org/apache/hadoop/conf/Configuration.class")).as("Hadoop is the worker's").isNull();
    }
  }

  @Test
  void theBundledNoticesAndLicensesAreKept() throws IOException {
    try (JarFile jar = new JarFile(jar().toFile())) {
      assertThat(text(jar, "META-INF/NOTICE")).contains("Apache Storm Iceberg (storm-iceberg)", "flux-core");
      assertThat(text(jar, "NOTICE")).as("the notices at the root of Iceberg's jars").contains("Apache Iceberg");
      assertThat(text(jar, "META-INF/LICENSE")).as("this project's license first").startsWith("\n                                 Apache License");
    }
  }

  static String text(JarFile jar, String entry) throws IOException {
    assertThat(jar.getEntry(entry)).as(entry).isNotNull();
    return new String(jar.getInputStream(jar.getEntry(entry)).readAllBytes(), StandardCharsets.UTF_8);
  }
}
