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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Paths;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The examples' shared command line. */
class ExampleMainTest {
  @Test
  void withoutCatalogPropertiesTheTableLivesInTheHadoopCatalogOnTheWarehouse() {
    ExampleMain.CommandLine line = ExampleMain.CommandLine.parse(new String[] {"cluster", "/shared/wh", "500"}, 20_000);

    assertThat(line.cluster).isTrue();
    assertThat(line.events).isEqualTo(500);
    assertThat(line.catalogProperties()).isEqualTo(LocalExampleRun.catalogProperties(Paths.get("/shared/wh")));
  }

  @Test
  void catalogPropertiesNameTheCatalogAndTheWarehouseDefaultsToTheDirectory() {
    ExampleMain.CommandLine line = ExampleMain.CommandLine.parse(new String[] {
        "cluster", "/shared/wh", "--catalog-property", "type=jdbc",
        "--catalog-property", "uri=jdbc:postgresql://127.0.0.1:5432/iceberg?ssl=false"}, 20_000);

    assertThat(line.events).isEqualTo(20_000);
    assertThat(line.catalogProperties()).isEqualTo(Map.of(
        "type", "jdbc", "uri", "jdbc:postgresql://127.0.0.1:5432/iceberg?ssl=false", "warehouse", "file:///shared/wh"));
  }

  @Test
  void catalogPropertiesAreRefusedInLocalModeAndWithoutAValue() {
    assertThatThrownBy(() -> ExampleMain.CommandLine.parse(new String[] {"local", "--catalog-property", "type=jdbc"}, 1))
        .hasMessageContaining("is for cluster mode");
    assertThatThrownBy(() -> ExampleMain.CommandLine.parse(new String[] {"cluster", "--catalog-property", "type"}, 1))
        .hasMessage("--catalog-property takes key=value; got 'type'");
  }
}
