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

package org.apache.storm.iceberg.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Where the harnesses put their figures: one CSV line per measured repetition, {@code
 * suite,params,variant,rep,value,unit}, appended to the file named by {@code -Dbench.results} (and
 * echoed to stdout). bench/report.py turns them into medians, spread and ratios.
 */
final class Results {
  private final Path file;

  Results() {
    this(System.getProperty("bench.results") == null ? null : Path.of(System.getProperty("bench.results")));
  }

  /** Appends to {@code file} as well as stdout; {@code null}: stdout only. */
  Results(Path file) {
    this.file = file;
  }

  void add(String suite, String params, String variant, int rep, double value, String unit) {
    String line = String.format(Locale.ROOT, "%s,%s,%s,%d,%.3f,%s%n", suite, params.replace(',', ';'), variant, rep, value, unit);
    System.out.print(line);
    if (file == null) {
      return;
    }
    try {
      Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
