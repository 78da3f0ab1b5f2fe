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
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.secrets.RedactingCollector;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.iceberg.testing.UnredactedLogCalls;
import org.junit.jupiter.api.Test;

/**
 * Keeps future log and report sites from forgetting redaction: in the kernel's sources, every
 * exception a log call passes is wrapped in {@code Redaction.of} (or its text in {@code
 * Redaction.redact}), and the kernel builds no collector of its own: it reports through the one
 * its {@link TaskEnvironment} holds, which every environment wraps in a {@link RedactingCollector}.
 */
class RedactionCoverageTest {
  private static final Path SOURCES = Path.of("src/main/java");

  @Test
  void everyLoggedExceptionIsRedacted() {
    assertThat(UnredactedLogCalls.in(sources())).as("log calls passing an exception without Redaction.of").isEmpty();
  }

  @Test
  void noCollectorBypassesTheTaskEnvironment() {
    List<String> constructions = new ArrayList<>();
    for (Path file : UnredactedLogCalls.javaFiles(sources())) {
      String code = UnredactedLogCalls.read(file);
      // ShutdownGuard's collector only wraps the bolt's, and the bolts hand it to TaskEnvironment,
      // which redacts whatever reaches it.
      if (code.contains("new OutputCollector(") && !file.getFileName().toString().equals("ShutdownGuard.java")) {
        constructions.add(file.getFileName() + " builds an OutputCollector");
      }
    }
    assertThat(constructions).as("collectors that would report errors unredacted").isEmpty();
  }

  private static Path sources() {
    assertThat(UnredactedLogCalls.javaFiles(SOURCES)).as("the kernel's sources, read from " + SOURCES.toAbsolutePath())
        .hasSizeGreaterThan(20);
    return SOURCES;
  }
}
