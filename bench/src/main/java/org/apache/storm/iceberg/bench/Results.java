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
    String name = System.getProperty("bench.results");
    this.file = name == null ? null : Path.of(name);
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
