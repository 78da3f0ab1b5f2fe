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

import org.apache.storm.iceberg.spi.SecretReferences;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.storm.iceberg.IcebergOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secret-named catalog properties given as {@code env:} and {@code file:} references. */
class SecretReferencesTest {
  @TempDir Path dir;

  @Test
  void referencesResolveOnTheWorkerAndOtherValuesStayLiteral() throws Exception {
    Path secret = Files.writeString(dir.resolve("catalog-password"), "file-pw-R3F\n");
    Map<String, String> given = Map.of(
        "jdbc.password", "file:" + secret,
        "token", "env:CATALOG_TOKEN",
        "credential", "file://" + secret,
        "warehouse", "file:/data/warehouse",
        "uri", "env:not-a-reference");

    Map<String, String> resolved =
        SecretReferences.resolve(given, name -> name.equals("CATALOG_TOKEN") ? "env-token-R3F" : null);

    assertThat(resolved).isEqualTo(Map.of(
        "jdbc.password", "file-pw-R3F",
        "token", "env-token-R3F",
        "credential", "file-pw-R3F",
        "warehouse", "file:/data/warehouse",
        "uri", "env:not-a-reference"));
  }

  @Test
  void missingVariableFailsNamingThePropertyAndTheVariable() {
    assertThatThrownBy(() -> SecretReferences.resolve(Map.of("jdbc.password", "env:CATALOG_PASSWORD"), name -> null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Catalog property 'jdbc.password' refers to environment variable CATALOG_PASSWORD, which is not"
            + " set on this worker; set it in the environment the supervisor starts workers with");
  }

  @Test
  void unreadableFileFailsNamingThePropertyAndTheFile() {
    Path missing = dir.resolve("absent");
    assertThatThrownBy(() -> SecretReferences.resolve(Map.of("token", "file:" + missing)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Catalog property 'token' refers to file " + missing + ", which cannot be read"
            + " (NoSuchFileException) on this worker; make it readable by the worker's user on every supervisor host");
  }

  @Test
  void malformedReferenceFailsAtBuildWithoutShowingTheValue() {
    assertThatThrownBy(() -> new IcebergOptions.Builder()
            .withCatalogProperties(Map.of("type", "jdbc", "jdbc.password", "file:relative/pw-R3F"))
            .withTable("db.events")
            .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'jdbc.password' starts with file: but names no absolute local path")
        .hasMessageContaining("write file:/path")
        .message().doesNotContain("pw-R3F");
    assertThatThrownBy(() -> new IcebergOptions.Builder()
            .withCatalogProperties(Map.of("type", "jdbc", "jdbc.password", "env:"))
            .withTable("db.events")
            .build())
        .hasMessageContaining("'jdbc.password' starts with env: but names no environment variable");
  }

  @Test
  void toStringShowsWhereTheSecretIsNotTheSecret() {
    String shown = new IcebergOptions.Builder()
        .withCatalogProperties(Map.of("type", "jdbc", "jdbc.password", "env:CATALOG_PASSWORD", "token", "t0k3n-R3F"))
        .withTable("db.events")
        .build()
        .toString();
    assertThat(shown).contains("jdbc.password=env:CATALOG_PASSWORD").contains("token=****").doesNotContain("t0k3n-R3F");
  }
}
