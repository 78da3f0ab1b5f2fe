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

package org.apache.storm.iceberg.spi;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProviderPropertiesTest {
  @Test
  void unknownKeysAreNamedWithTheKeysTheProviderTakes() {
    assertThatThrownBy(() -> ProviderProperties.check(
            "seal policy 'open-files'", Map.of("max-files", "3", "max-open-files", "2"), Set.of(),
            Set.of("max-partitions", "max-open-files")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seal policy 'open-files' does not know properties [max-files]; it takes [max-open-files, max-partitions]");
  }

  @Test
  void aProviderWithoutPropertiesSaysItTakesNone() {
    assertThatThrownBy(() -> ProviderProperties.check("WAL store 'table-fileio'", Map.of("bogus", "1"), Set.of(), Set.of()))
        .hasMessage("WAL store 'table-fileio' does not know properties [bogus]; it takes none");
  }

  @Test
  void missingAndBlankRequiredKeysAreNamed() {
    assertThatThrownBy(() -> ProviderProperties.check("seal policy 'age'", Map.of(), Set.of("limit"), Set.of()))
        .hasMessage("seal policy 'age' needs properties [limit]; it takes [limit]");
    assertThatThrownBy(() -> ProviderProperties.check("WAL store 'hadoop-fs'", Map.of("path", " "), Set.of("path"), Set.of()))
        .hasMessage("WAL store 'hadoop-fs' needs properties [path]; it takes [path]");
  }

  @Test
  void knownKeysPass() {
    assertThatCode(() -> ProviderProperties.check("record mapper 'json'", Map.of("field", "v"), Set.of(), Set.of("field")))
        .doesNotThrowAnyException();
    assertThatCode(() -> ProviderProperties.check("seal policy 'age'", Map.of("limit", "5"), Set.of("limit"), Set.of()))
        .doesNotThrowAnyException();
  }
}
