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

package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * README's one options table ("### Options", under "Configuration reference") has a row for every
 * public {@code with*} method of {@link IcebergOptions.Builder} and every {@code fromMap} key
 * ({@code IcebergOptions.MAP_KEYS}), each with its four cells: builder method, Flux key, default,
 * what it does.
 */
class ReadmeOptionsTableTest {
  private static final Path README = Path.of("../README.md");
  private static final Pattern BUILDER_METHOD = Pattern.compile("`(with\\w+)\\(");
  private static final Pattern FIRST_KEY = Pattern.compile("^`([a-z-]+)`");

  @Test
  void everyBuilderMethodHasARowAndEveryRowABuilderMethod() throws IOException {
    Set<String> documented = new TreeSet<>();
    for (List<String> row : rows()) {
      Matcher method = BUILDER_METHOD.matcher(row.get(0));
      while (method.find()) {
        documented.add(method.group(1));
      }
    }
    Set<String> builderMethods =
        Arrays.stream(IcebergOptions.Builder.class.getDeclaredMethods())
            .filter(m -> Modifier.isPublic(m.getModifiers()) && m.getName().startsWith("with"))
            .map(Method::getName)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(documented).as("builder methods in README's options table").isEqualTo(builderMethods);
  }

  @Test
  void everyFromMapKeyHasARowAndEveryRowAKey() throws IOException {
    Set<String> documented = new TreeSet<>();
    for (List<String> row : rows()) {
      Matcher key = FIRST_KEY.matcher(row.get(1));
      assertThat(key.find()).as("Flux key cell of the row for %s", row.get(0)).isTrue();
      documented.add(key.group(1));
    }
    assertThat(documented).as("Flux keys in README's options table").isEqualTo(IcebergOptions.mapKeys());
  }

  /** The cells of each row of README's "### Options" table, below its header. */
  private static List<List<String>> rows() throws IOException {
    String readme = Files.readString(README);
    int start = readme.indexOf("\n### Options\n");
    assertThat(start).as("README.md has an \"### Options\" section, read from " + README.toAbsolutePath()).isPositive();
    String section = readme.substring(start + 1, readme.indexOf("\n### ", start + 1));
    List<String> lines = section.lines().filter(line -> line.startsWith("|")).toList();
    assertThat(lines.get(0)).isEqualTo("| builder method | Flux key | default | what it does |");
    List<List<String>> rows = lines.stream()
        .skip(2)
        .map(line -> Arrays.stream(line.substring(1, line.length() - 1).split(" \\| ")).map(String::trim).toList())
        .toList();
    for (List<String> row : rows) {
      assertThat(row).as("cells of the options row %s", row).hasSize(4).allSatisfy(cell -> assertThat(cell).isNotBlank());
    }
    return rows;
  }
}
