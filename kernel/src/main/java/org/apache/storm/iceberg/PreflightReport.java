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

import java.util.List;
import java.util.Locale;

/**
 * What a preflight found ({@link IcebergOptions#preflight()}, {@link IcebergTopologies#preflight}):
 * one line per check, each PASS, WARN or FAIL, with what was seen and, for a FAIL, how to fix it.
 * Nothing in it is a secret: catalog properties are named, never shown.
 */
public final class PreflightReport {
  /** How one check came out. */
  public enum Status {
    /** Checked and fine. */
    PASS,
    /** Not checked, or fine with a caveat the line explains; the sink can run. */
    WARN,
    /** The sink would fail on its workers: the line says how to fix it. */
    FAIL
  }

  /**
   * One check's result.
   *
   * @param status how it came out
   * @param check what was checked, one word ({@code catalog}, {@code table}, {@code wal}, ...)
   * @param message what was found, and for a FAIL, the fix
   */
  public record Line(Status status, String check, String message) {
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%-4s  %-14s %s", status, check, message);
    }
  }

  private final List<Line> lines;

  public PreflightReport(List<Line> lines) {
    this.lines = List.copyOf(lines);
  }

  public List<Line> lines() {
    return lines;
  }

  /** Whether any check failed: the sink, as configured, would not run. */
  public boolean failed() {
    return lines.stream().anyMatch(line -> line.status() == Status.FAIL);
  }

  /** The line of {@code check}, or null when the report has none. */
  public Line line(String check) {
    return lines.stream().filter(line -> line.check().equals(check)).findFirst().orElse(null);
  }

  /** One report of this one's lines followed by {@code other}'s. */
  public PreflightReport and(PreflightReport other) {
    java.util.List<Line> all = new java.util.ArrayList<>(lines);
    all.addAll(other.lines);
    return new PreflightReport(all);
  }

  /** The lines, one per row, then a verdict. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    lines.forEach(line -> text.append(line).append('\n'));
    long failures = lines.stream().filter(line -> line.status() == Status.FAIL).count();
    text.append(failures == 0 ? "preflight passed" : "preflight FAILED: " + failures + " check(s) to fix");
    return text.toString();
  }
}
