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

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.apache.storm.StormSubmitter;

/**
 * The command line every example shares:
 *
 * <pre>
 *   ExampleTopology [local|cluster] [warehouse-dir] [events] [--catalog-property key=value]...
 * </pre>
 *
 * <p>{@code local} (the default) runs in LocalCluster until every event is committed, prints a
 * summary and exits (0 on success, 1 otherwise). {@code cluster} submits the topology with {@code
 * StormSubmitter}, as {@code storm jar storm-iceberg-examples-…-topology.jar <class> cluster
 * /shared/warehouse} does; the warehouse must then be a path every worker reaches.
 *
 * <p>Without {@code --catalog-property} the table lives in a Hadoop catalog on the warehouse
 * directory. With it (cluster mode only), the properties given are the catalog's, passed verbatim
 * to Iceberg, and {@code warehouse} defaults to the warehouse directory: for example {@code
 * --catalog-property type=jdbc --catalog-property uri=jdbc:postgresql://db:5432/iceberg}.
 */
final class ExampleMain {
  static final String CATALOG_PROPERTY = "--catalog-property";

  private ExampleMain() {}

  /** Submits the topology with StormSubmitter, as {@code storm jar} runs it (the jar is {@code storm.jar}). */
  static void submit(String name, LocalExampleRun.TopologyFactory topology, String runId, long events) throws Exception {
    submit(name, LocalExampleRun.Pipeline.BOLTS, topology, runId, events);
  }

  static void submit(String name, LocalExampleRun.Pipeline pipeline, LocalExampleRun.TopologyFactory topology, String runId, long events)
      throws Exception {
    StormSubmitter.submitTopology(name, pipeline.config(), topology.create(runId, events));
  }

  static void run(
      String name, String table, long defaultEvents, String[] args,
      Function<Map<String, String>, LocalExampleRun.TopologyFactory> topologyForCatalog) {
    run(name, table, defaultEvents, args, LocalExampleRun.Pipeline.BOLTS, topologyForCatalog);
  }

  static void run(
      String name, String table, long defaultEvents, String[] args, LocalExampleRun.Pipeline pipeline,
      Function<Map<String, String>, LocalExampleRun.TopologyFactory> topologyForCatalog) {
    try {
      CommandLine line = CommandLine.parse(args, defaultEvents);
      LocalExampleRun.TopologyFactory topology = topologyForCatalog.apply(line.catalogProperties());
      if (line.cluster) {
        String runId = UUID.randomUUID().toString();
        submit(name, pipeline, topology, runId, line.events);
        System.out.println("submitted " + name + ": " + line.events + " events into " + table + " under " + line.warehouse
            + " (run " + runId + ")");
      } else {
        System.out.println(LocalExampleRun.run(name, line.warehouse, table, line.events, pipeline, topology));
      }
      System.exit(0);
    } catch (Exception | AssertionError e) {
      e.printStackTrace();
      System.exit(1);
    }
  }

  /** The parsed command line. */
  static final class CommandLine {
    final boolean cluster;
    final Path warehouse;
    final long events;
    /** The {@code --catalog-property} pairs in order; empty means the local Hadoop catalog. */
    final Map<String, String> catalogOverride;

    private CommandLine(boolean cluster, Path warehouse, long events, Map<String, String> catalogOverride) {
      this.cluster = cluster;
      this.warehouse = warehouse;
      this.events = events;
      this.catalogOverride = catalogOverride;
    }

    static CommandLine parse(String[] args, long defaultEvents) {
      List<String> positional = new ArrayList<>();
      Map<String, String> catalog = new LinkedHashMap<>();
      for (int i = 0; i < args.length; i++) {
        if (!args[i].equals(CATALOG_PROPERTY)) {
          positional.add(args[i]);
          continue;
        }
        String pair = i + 1 < args.length ? args[++i] : "";
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException(CATALOG_PROPERTY + " takes key=value; got '" + pair + "'");
        }
        catalog.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
      boolean cluster = !positional.isEmpty() && positional.get(0).equals("cluster");
      int next = !positional.isEmpty() && (cluster || positional.get(0).equals("local")) ? 1 : 0;
      Path warehouse = Paths.get(positional.size() > next ? positional.get(next) : "warehouse").toAbsolutePath();
      long events = positional.size() > next + 1 ? Long.parseLong(positional.get(next + 1)) : defaultEvents;
      if (!catalog.isEmpty() && !cluster) {
        // Local mode reads the table back through the embedded Hadoop catalog to report on it.
        throw new IllegalArgumentException(CATALOG_PROPERTY + " is for cluster mode; local mode uses the Hadoop catalog under the warehouse");
      }
      return new CommandLine(cluster, warehouse, events, catalog);
    }

    /** The catalog the topology writes to. */
    Map<String, String> catalogProperties() {
      if (catalogOverride.isEmpty()) {
        return LocalExampleRun.catalogProperties(warehouse);
      }
      Map<String, String> properties = new LinkedHashMap<>(catalogOverride);
      properties.putIfAbsent("warehouse", warehouse.toUri().toString());
      return properties;
    }
  }
}
