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

import org.apache.storm.iceberg.kernel.task.ShutdownGuard;
import org.apache.storm.iceberg.kernel.secrets.Redaction;
import org.apache.storm.iceberg.kernel.secrets.RedactingCollector;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps future log and report sites from forgetting redaction: in the kernel's sources, every
 * exception a log call passes is wrapped in {@code Redaction.of} (or its text in {@code
 * Redaction.redact}), and the kernel builds no collector of its own: it reports through the one
 * its {@link TaskEnvironment} holds, which every environment wraps in a {@link RedactingCollector}.
 */
class RedactionCoverageTest {
  private static final Path SOURCES = Path.of("src/main/java");
  private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
  private static final Pattern CATCH = Pattern.compile("catch\\s*\\(([^)]*?)(\\w+)\\s*\\)");
  private static final Pattern DECLARATION = Pattern.compile("\\b\\w*(?:Exception|Error|Throwable)\\s+(\\w+)\\s*[=;,)]");
  private static final Pattern LOG_CALL = Pattern.compile("LOG\\.(?:trace|debug|info|warn|error)\\((.*?)\\);", Pattern.DOTALL);

  @Test
  void everyLoggedExceptionIsRedacted() throws IOException {
    List<String> unredacted = new ArrayList<>();
    for (Path file : sources()) {
      String code = STRING_LITERAL.matcher(Files.readString(file)).replaceAll("\"\"");
      Set<String> throwables = throwableNames(code);
      Matcher call = LOG_CALL.matcher(code);
      while (call.find()) {
        for (String name : throwables) {
          Pattern bare = Pattern.compile("(?<!Redaction\\.of\\()(?<!Redaction\\.redact\\()\\b" + name + "\\b");
          if (bare.matcher(call.group(1)).find()) {
            unredacted.add(file.getFileName() + ": " + call.group().replaceAll("\\s+", " ") + " (" + name + ")");
          }
        }
      }
    }
    assertThat(unredacted).as("log calls passing an exception without Redaction.of").isEmpty();
  }

  @Test
  void noCollectorBypassesTheTaskEnvironment() throws IOException {
    List<String> constructions = new ArrayList<>();
    for (Path file : sources()) {
      String code = Files.readString(file);
      // ShutdownGuard's collector only wraps the bolt's, and the bolts hand it to TaskEnvironment,
      // which redacts whatever reaches it.
      if (code.contains("new OutputCollector(") && !file.getFileName().toString().equals("ShutdownGuard.java")) {
        constructions.add(file.getFileName() + " builds an OutputCollector");
      }
    }
    assertThat(constructions).as("collectors that would report errors unredacted").isEmpty();
  }

  private static Set<String> throwableNames(String code) {
    Set<String> names = new LinkedHashSet<>();
    Matcher caught = CATCH.matcher(code);
    while (caught.find()) {
      names.add(caught.group(2));
    }
    Matcher declared = DECLARATION.matcher(code);
    while (declared.find()) {
      names.add(declared.group(1));
    }
    return names;
  }

  private static List<Path> sources() throws IOException {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      List<Path> java = files.filter(f -> f.toString().endsWith(".java")).toList();
      assertThat(java).as("the kernel's sources, read from " + SOURCES.toAbsolutePath()).hasSizeGreaterThan(20);
      return java;
    }
  }
}
