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

package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;
import org.apache.storm.iceberg.spi.SealPolicyFactory;
import org.apache.storm.tuple.ITuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderRegistryTest {
  @TempDir Path dir;

  /** Test-only providers that clash on one name. */
  public static class FirstClash implements RecordMapperFactory {
    @Override
    public String name() {
      return "clash";
    }

    @Override
    public RecordMapper create(Map<String, String> properties) {
      return (ITuple tuple, Schema schema) -> (Record) null;
    }
  }

  public static class SecondClash extends FirstClash {}

  private ClassLoader loaderWithServices(String... providerClasses) throws IOException {
    Path services = Files.createDirectories(dir.resolve("META-INF/services"));
    Files.writeString(services.resolve(RecordMapperFactory.class.getName()), String.join("\n", providerClasses));
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
  }

  @Test
  void twoProvidersWithOneNameFailNamingBothClasses() throws IOException {
    ClassLoader loader = loaderWithServices(FirstClash.class.getName(), SecondClash.class.getName());
    assertThatThrownBy(() -> ProviderRegistry.find(RecordMapperFactory.class, "field-name", loader))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Two record mapper providers are named 'clash': "
                + FirstClash.class.getName()
                + " and "
                + SecondClash.class.getName()
                + ". Remove one of them from the classpath.");
  }

  @Test
  void aMissingProviderListsWhatWasFoundAndTheArtifactToAdd() {
    ClassLoader empty = new URLClassLoader(new URL[0], null);
    assertThatThrownBy(() -> ProviderRegistry.find(RecordMapperFactory.class, "field-name", empty))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "No record mapper named 'field-name' on the classpath; found []. Add the artifact that provides it"
                + " to the topology jar (the defaults are in org.apache.storm:storm-iceberg-mappers, part of"
                + " org.apache.storm:storm-iceberg), or select one of the names found.");
  }

  @Test
  void theBuiltInThresholdsAreProvidersToo() {
    assertThat(ProviderRegistry.load(SealPolicyFactory.class, getClass().getClassLoader()))
        .containsOnlyKeys("records", "bytes", "age", "open-files", "wall-clock");
    var policy = ProviderRegistry.find(SealPolicyFactory.class, "bytes", getClass().getClassLoader()).create(Map.of("limit", "10"));
    assertThat(policy.shouldSeal(new org.apache.storm.iceberg.spi.BatchStats(1, 10, 0, 1, 1, 0))).isTrue();
    assertThat(policy.shouldSeal(new org.apache.storm.iceberg.spi.BatchStats(1, 9, 0, 1, 1, 0))).isFalse();
    assertThatThrownBy(() -> ProviderRegistry.find(SealPolicyFactory.class, "age", getClass().getClassLoader()).create(Map.of()))
        .hasMessage("seal policy 'age' needs properties [limit]; it takes [limit]");
  }
}
