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

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.storm.Config;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ComponentCommon;
import org.apache.storm.generated.ComponentObject;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.StreamInfo;
import org.apache.storm.iceberg.kernel.env.BoltPaths;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.task.ComponentChecks;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;

/**
 * Runs, on the submitting client, the checks every sink component of a topology would otherwise
 * run at prepare against the configuration it is submitted with: commit intervals and the commit
 * deadline margin against {@code topology.message.timeout.secs}, tick tuples for an age threshold,
 * {@code topology.max.spout.pending} against the batch size, {@code topology.producer.batch.size}
 * against the executor receive queues, and the grouping source positions need. A mistake there
 * would otherwise fail every task at prepare, after submission, and Storm would
 * restart the workers in a loop. Call it just before submitting:
 *
 * <pre>{@code
 * StormTopology topology = builder.createTopology();
 * IcebergTopologies.check(conf, topology);
 * StormSubmitter.submitTopology("events-to-iceberg", conf, topology);
 * }</pre>
 *
 * <p>It checks {@link IcebergBolt}, {@link IcebergWriterBolt} and {@link IcebergCommitterBolt}
 * components. Trident states run inside Trident's own bolts, which it does not open: their checks
 * still run at prepare.
 */
public final class IcebergTopologies {
  private static final ObjectMapper JSON = new ObjectMapper();

  private IcebergTopologies() {}

  /** {@link #check(Map, StormTopology)} on {@code builder}'s topology. */
  public static void check(Map<String, Object> topologyConfig, TopologyBuilder builder) {
    check(topologyConfig, builder.createTopology());
  }

  /**
   * @param topologyConfig the configuration the topology will be submitted with, over Storm's
   *     defaults and this client's {@code storm.yaml} and {@code storm jar -c} options
   * @throws IllegalStateException for the first sink component whose tasks would fail at prepare,
   *     naming the component, the setting and how to fix it
   */
  public static void check(Map<String, Object> topologyConfig, StormTopology topology) {
    for (SinkComponent sink : sinkComponents(topologyConfig, topology)) {
      try {
        sink.runChecks();
      } catch (IllegalStateException fails) {
        throw new IllegalStateException("Component '" + sink.id() + "' would fail when its tasks start: "
            + fails.getMessage(), fails);
      }
    }
  }

  /** {@link #preflight(Map, StormTopology)} on {@code builder}'s topology. */
  public static PreflightReport preflight(Map<String, Object> topologyConfig, TopologyBuilder builder) {
    return preflight(topologyConfig, builder.createTopology());
  }

  /**
   * Checks every sink component of the topology end to end, from this client, and says what it
   * found, line by line: {@link IcebergOptions#preflight()} for each (with the fields its upstream
   * components declare, for the mapper's columns), then the checks {@link #check(Map, StormTopology)}
   * runs. Nothing it writes stays: see README.md, "Before you submit".
   *
   * @param topologyConfig the configuration the topology will be submitted with
   */
  public static PreflightReport preflight(Map<String, Object> topologyConfig, StormTopology topology) {
    PreflightReport report = new PreflightReport(List.of());
    for (SinkComponent sink : sinkComponents(topologyConfig, topology)) {
      report = report.and(sink.preflight(topology));
    }
    if (report.lines().isEmpty()) {
      report = new PreflightReport(List.of(new PreflightReport.Line(PreflightReport.Status.WARN, "topology",
          "no IcebergBolt, IcebergWriterBolt or IcebergCommitterBolt component: nothing to check")));
    }
    return report;
  }

  /** A component of the topology that runs a sink bolt, with what its tasks will see. */
  private record SinkComponent(
      String id, ComponentChecks.Role role, IcebergOptions options, TaskIdentity task, Map<String, Object> conf,
      ComponentCommon common, ClassLoader loader) {

    void runChecks() {
      ComponentChecks.run(role, options.settings(), task, conf, common.get_inputs(), loader);
    }

    PreflightReport preflight(StormTopology topology) {
      PreflightReport.Line component = new PreflightReport.Line(PreflightReport.Status.PASS, "component",
          "'" + id + "' runs " + role.boltName() + " in " + task.componentTasks() + " task(s)");
      PreflightReport sink = options.sinkPreflight(role.writes() ? upstreamFields(topology, common) : null);
      PreflightReport.Line topologyChecks;
      try {
        runChecks();
        topologyChecks = new PreflightReport.Line(PreflightReport.Status.PASS, "topology", "message timeout, commit"
            + " intervals, deadline margin, tick tuples, pending tuples, producer batching and groupings fit this component");
      } catch (IllegalStateException fails) {
        topologyChecks = new PreflightReport.Line(PreflightReport.Status.FAIL, "topology", fails.getMessage());
      }
      List<PreflightReport.Line> lines = new ArrayList<>();
      lines.add(component);
      lines.addAll(sink.lines());
      lines.add(topologyChecks);
      return new PreflightReport(lines);
    }
  }

  /**
   * The fields of the tuples that reach the component, when every stream into it declares the same;
   * null when they differ or none is declared (a placeholder component, say).
   */
  private static List<String> upstreamFields(StormTopology topology, ComponentCommon common) {
    Set<List<String>> layouts = new HashSet<>();
    for (GlobalStreamId input : common.get_inputs().keySet()) {
      ComponentCommon upstream = commonOf(topology, input.get_componentId());
      StreamInfo stream = upstream == null ? null : upstream.get_streams().get(input.get_streamId());
      if (stream == null || stream.get_output_fields().isEmpty()) {
        return null;
      }
      layouts.add(stream.get_output_fields());
    }
    return layouts.size() == 1 ? layouts.iterator().next() : null;
  }

  private static ComponentCommon commonOf(StormTopology topology, String id) {
    if (topology.get_spouts().containsKey(id)) {
      return topology.get_spouts().get(id).get_common();
    }
    return topology.get_bolts().containsKey(id) ? topology.get_bolts().get(id).get_common() : null;
  }

  private static List<SinkComponent> sinkComponents(Map<String, Object> topologyConfig, StormTopology topology) {
    // What the workers will run with: Storm's defaults, this client's storm.yaml and storm jar -c, then the topology's.
    Map<String, Object> effective = new HashMap<>(Utils.readStormConfig());
    effective.putAll(topologyConfig);
    String name = String.valueOf(effective.getOrDefault(Config.TOPOLOGY_NAME, "topology"));
    int spoutTasks = topology.get_spouts().values().stream().mapToInt(spout -> tasks(spout.get_common())).sum();
    int boltsOnPath = BoltPaths.longest(topology);
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    List<SinkComponent> sinks = new ArrayList<>();
    for (Map.Entry<String, Bolt> component : new TreeMap<>(topology.get_bolts()).entrySet()) {
      Object bolt = instance(component.getValue().get_bolt_object());
      ComponentChecks.Role role = roleOf(bolt);
      if (role == null) {
        continue;
      }
      ComponentCommon common = component.getValue().get_common();
      TaskIdentity task = new TaskIdentity(name, component.getKey(), 0, 0, tasks(common), spoutTasks, boltsOnPath);
      sinks.add(new SinkComponent(component.getKey(), role, optionsOf(bolt), task, configuration(effective, common), common, loader));
    }
    return sinks;
  }

  private static ComponentChecks.Role roleOf(Object bolt) {
    if (bolt instanceof IcebergBolt) {
      return ComponentChecks.Role.SINK;
    }
    if (bolt instanceof IcebergWriterBolt) {
      return ComponentChecks.Role.WRITER;
    }
    return bolt instanceof IcebergCommitterBolt ? ComponentChecks.Role.COMMITTER : null;
  }

  private static IcebergOptions optionsOf(Object bolt) {
    return bolt instanceof SinkTaskBolt sink ? sink.options : ((IcebergCommitterBolt) bolt).options();
  }

  /** The bolt a component runs, or null for one that is not a serialized Java object (a shell bolt, say). */
  private static Object instance(ComponentObject object) {
    return object.is_set_serialized_java() ? Utils.javaDeserialize(object.get_serialized_java(), Object.class) : null;
  }

  /** The configuration a task of the component sees: the topology's, its component configuration over it. */
  private static Map<String, Object> configuration(Map<String, Object> topologyConfig, ComponentCommon common) {
    Map<String, Object> merged = new HashMap<>(topologyConfig);
    if (common.is_set_json_conf()) {
      try {
        merged.putAll(JSON.readValue(common.get_json_conf(), new TypeReference<Map<String, Object>>() {}));
      } catch (IOException e) {
        throw new UncheckedIOException("Unreadable component configuration", e);
      }
    }
    return merged;
  }

  private static int tasks(ComponentCommon common) {
    Map<String, Object> conf = configuration(Map.of(), common);
    int parallelism = common.is_set_parallelism_hint() ? common.get_parallelism_hint() : 1;
    return ObjectReader.getInt(conf.get(Config.TOPOLOGY_TASKS), parallelism);
  }
}
