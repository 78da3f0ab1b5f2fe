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


package org.apache.storm.iceberg.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.PreflightReport;
import org.apache.storm.iceberg.spi.Redaction;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Checks a sink before it is submitted, from an options file (the keys {@code IcebergOptions.fromMap}
 * and Flux read) or from a Flux topology's component, and prints one PASS / WARN / FAIL line per
 * check ({@link IcebergOptions#preflight()}, and with a Flux file {@code
 * IcebergTopologies.preflight}).
 *
 * <pre>
 *   java -jar storm-iceberg-tools-….jar check --options sink.yaml [--fields id,region,...]
 *   java -jar storm-iceberg-tools-….jar check --flux topology.yaml --component iceberg [--filter dev.properties] [--env-filter]
 * </pre>
 *
 * Exit status: 0 when no check failed, 1 when one did, 2 for bad arguments. Secrets are never printed.
 */
public final class IcebergPreflight {
  private IcebergPreflight() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line {@code args}, printing the report to {@code out}; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Arguments arguments;
    try {
      arguments = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(IcebergTools.USAGE);
      return 2;
    }
    PreflightReport report;
    try {
      report = arguments.flux != null
          ? FluxSink.read(arguments.flux, arguments.component, arguments.filter, arguments.envFilter).preflight()
          : optionsFile(arguments.options).preflight(arguments.fields);
    } catch (IOException e) {
      err.println("cannot read " + (arguments.flux != null ? arguments.flux : arguments.options) + ": " + e.getMessage());
      return 2;
    } catch (FluxSink.NoSuchComponentException e) {
      err.println(e.getMessage());
      return 2;
    } catch (RuntimeException invalid) {
      report = new PreflightReport(List.of(new PreflightReport.Line(PreflightReport.Status.FAIL, "options",
          Redaction.redact(String.valueOf(invalid.getMessage())))));
    }
    out.println(report);
    return report.failed() ? 1 : 0;
  }

  /** The options an options file holds: a YAML (or JSON) map of {@code fromMap}'s keys. */
  static IcebergOptions optionsFile(Path file) throws IOException {
    Object document;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      document = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
    }
    if (!(document instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException(file + " holds no map of options: write the keys a Flux fromMap component takes"
          + " (catalog, table, ...), one per line");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> options = (Map<String, Object>) map;
    return IcebergOptions.fromMap(options);
  }

  /** The command line, read strictly. */
  static final class Arguments {
    Path options;
    Path flux;
    String component;
    String filter;
    boolean envFilter;
    List<String> fields;

    static Arguments parse(String[] args) {
      Arguments parsed = new Arguments();
      for (int i = 0; i < args.length; i++) {
        String flag = args[i];
        if (flag.equals("--env-filter")) {
          parsed.envFilter = true;
          continue;
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(flag + " needs a value");
        }
        String value = args[++i];
        switch (flag) {
          case "--options" -> parsed.options = Path.of(value);
          case "--flux" -> parsed.flux = Path.of(value);
          case "--component" -> parsed.component = value;
          case "--filter" -> parsed.filter = value;
          case "--fields" -> parsed.fields = Arrays.stream(value.split(",")).map(String::trim).toList();
          default -> throw new IllegalArgumentException("unknown option " + flag);
        }
      }
      if ((parsed.options == null) == (parsed.flux == null)) {
        throw new IllegalArgumentException("give either --options FILE or --flux FILE --component ID");
      }
      if (parsed.flux != null && parsed.component == null) {
        throw new IllegalArgumentException("--flux needs --component ID: the id of the Iceberg bolt (or its options component)");
      }
      if (parsed.options != null && (parsed.component != null || parsed.filter != null || parsed.envFilter)) {
        throw new IllegalArgumentException("--component, --filter and --env-filter go with --flux");
      }
      if (parsed.flux != null && parsed.fields != null) {
        throw new IllegalArgumentException("--fields goes with --options: with --flux the upstream components' fields are used"
            + " when they declare them");
      }
      return parsed;
    }
  }
}
