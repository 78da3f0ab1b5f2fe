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
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.storm.Config;
import org.apache.storm.flux.model.BeanDef;
import org.apache.storm.flux.model.BeanReference;
import org.apache.storm.flux.model.BoltDef;
import org.apache.storm.flux.model.GroupingDef;
import org.apache.storm.flux.model.SpoutDef;
import org.apache.storm.flux.model.StreamDef;
import org.apache.storm.flux.model.TopologyDef;
import org.apache.storm.flux.parser.FluxParser;
import org.apache.storm.iceberg.IcebergBolt;
import org.apache.storm.iceberg.IcebergCommitterBolt;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.IcebergTopologies;
import org.apache.storm.iceberg.IcebergWriterBolt;
import org.apache.storm.iceberg.PreflightReport;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;

/**
 * One Iceberg bolt of a Flux topology, read without running any of the topology's classes: its
 * options from the {@code fromMap} component it references, the topology's {@code config:}, and the
 * shape the topology checks need (parallelism, and the streams into the bolt with their
 * groupings). Every other spout and bolt stands in as a placeholder that declares nothing, so the
 * tool needs none of the user's classes.
 */
final class FluxSink {
  private final TopologyDef topology;
  private final BoltDef bolt;
  private final IcebergOptions options;

  private FluxSink(TopologyDef topology, BoltDef bolt, IcebergOptions options) {
    this.topology = topology;
    this.bolt = bolt;
    this.options = options;
  }

  /** A component the command line names that the Flux file does not hold, or not as an Iceberg bolt. */
  static final class NoSuchComponentException extends IllegalArgumentException {
    NoSuchComponentException(String message) {
      super(message);
    }
  }

  /**
   * @param component the id of an Iceberg bolt, or of the options component one Iceberg bolt references
   * @param filter a properties file for Flux's {@code ${...}} substitution, or null
   */
  static FluxSink read(Path file, String component, String filter, boolean envFilter) throws IOException {
    Properties properties = filter == null ? null : FluxParser.parseProperties(filter, false);
    TopologyDef topology = FluxParser.parseFile(file.toString(), false, true, properties, envFilter);
    BoltDef bolt = sinkBolt(topology, component);
    BeanDef optionsComponent = optionsComponent(topology, bolt);
    return new FluxSink(topology, bolt, options(optionsComponent));
  }

  PreflightReport preflight() {
    Map<String, Object> conf = new HashMap<>(topology.getConfig() == null ? Map.of() : topology.getConfig());
    conf.putIfAbsent(Config.TOPOLOGY_NAME, topology.getName());
    return IcebergTopologies.preflight(conf, placeholderTopology());
  }

  private static BoltDef sinkBolt(TopologyDef topology, String component) {
    List<BoltDef> sinks = topology.getBolts().stream().filter(FluxSink::isSinkBolt).toList();
    for (BoltDef candidate : sinks) {
      if (candidate.getId().equals(component) || referencedOptions(candidate).equals(component)) {
        return candidate;
      }
    }
    throw new NoSuchComponentException("the Flux file has no IcebergBolt, IcebergWriterBolt or IcebergCommitterBolt '" + component
        + "', nor one that references options '" + component + "'; its Iceberg bolts: "
        + sinks.stream().map(BoltDef::getId).toList());
  }

  private static boolean isSinkBolt(BoltDef bolt) {
    return List.of(IcebergBolt.class.getName(), IcebergWriterBolt.class.getName(), IcebergCommitterBolt.class.getName())
        .contains(bolt.getClassName());
  }

  private static String referencedOptions(BoltDef bolt) {
    List<Object> args = bolt.getConstructorArgs();
    return args != null && args.size() == 1 && args.get(0) instanceof BeanReference reference ? reference.getId() : "";
  }

  private static BeanDef optionsComponent(TopologyDef topology, BoltDef bolt) {
    BeanDef options = topology.getComponent(referencedOptions(bolt));
    if (options == null || !IcebergOptions.class.getName().equals(options.getClassName()) || !"fromMap".equals(options.getFactory())) {
      throw new NoSuchComponentException("bolt '" + bolt.getId() + "' must take one constructor argument, a ref to an"
          + " org.apache.storm.iceberg.IcebergOptions component made by factory fromMap");
    }
    return options;
  }

  @SuppressWarnings("unchecked")
  private static IcebergOptions options(BeanDef component) {
    List<Object> args = component.getFactoryArgs();
    if (args == null || args.isEmpty() || !(args.get(0) instanceof Map)) {
      throw new NoSuchComponentException("component '" + component.getId() + "' gives fromMap no map of options");
    }
    Map<String, Object> map = (Map<String, Object>) args.get(0);
    return args.size() > 1 && args.get(1) instanceof Map<?, ?> topologyConfig
        ? IcebergOptions.fromMap(map, (Map<String, Object>) topologyConfig)
        : IcebergOptions.fromMap(map);
  }

  /** The topology with the sink bolt as it would run and every other component a placeholder. */
  private org.apache.storm.generated.StormTopology placeholderTopology() {
    TopologyBuilder builder = new TopologyBuilder();
    for (SpoutDef spout : topology.getSpouts()) {
      builder.setSpout(spout.getId(), new PlaceholderSpout(), spout.getParallelism()).setNumTasks(tasks(spout.getNumTasks(), spout.getParallelism()));
    }
    for (BoltDef other : topology.getBolts()) {
      if (!other.getId().equals(bolt.getId())) {
        builder.setBolt(other.getId(), new PlaceholderBolt(), other.getParallelism());
      }
    }
    BoltDeclarer sink = builder.setBolt(bolt.getId(), sinkBoltInstance(), bolt.getParallelism())
        .setNumTasks(tasks(bolt.getNumTasks(), bolt.getParallelism()));
    for (StreamDef stream : topology.getStreams()) {
      if (stream.getTo().equals(bolt.getId())) {
        group(sink, stream.getFrom(), stream.getGrouping());
      }
    }
    return builder.createTopology();
  }

  private static int tasks(int numTasks, int parallelism) {
    return numTasks > 0 ? numTasks : Math.max(1, parallelism);
  }

  private IRichBolt sinkBoltInstance() {
    String className = bolt.getClassName();
    if (className.equals(IcebergWriterBolt.class.getName())) {
      return new IcebergWriterBolt(options);
    }
    return className.equals(IcebergCommitterBolt.class.getName()) ? new IcebergCommitterBolt(options) : new IcebergBolt(options);
  }

  private static void group(BoltDeclarer sink, String from, GroupingDef grouping) {
    String stream = grouping.getStreamId() == null ? org.apache.storm.utils.Utils.DEFAULT_STREAM_ID : grouping.getStreamId();
    switch (grouping.getType()) {
      case FIELDS -> sink.fieldsGrouping(from, stream, new Fields(grouping.getArgs()));
      case GLOBAL -> sink.globalGrouping(from, stream);
      case ALL -> sink.allGrouping(from, stream);
      case NONE -> sink.noneGrouping(from, stream);
      case LOCAL_OR_SHUFFLE -> sink.localOrShuffleGrouping(from, stream);
      case DIRECT -> sink.directGrouping(from, stream);
      // A custom grouping's class is the user's: what the checks need to know is that it is not by fields.
      case CUSTOM -> sink.customGrouping(from, stream, new CustomPlaceholder(grouping.getCustomClass().getClassName()));
      default -> sink.shuffleGrouping(from, stream);
    }
  }

  /** Stands in for a spout of the topology: declares nothing and emits nothing. */
  static final class PlaceholderSpout extends BaseRichSpout {
    @Override
    public void open(Map<String, Object> conf, org.apache.storm.task.TopologyContext context,
        org.apache.storm.spout.SpoutOutputCollector collector) {}

    @Override
    public void nextTuple() {}

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {}
  }

  /** Stands in for a bolt of the topology. */
  static final class PlaceholderBolt extends BaseBasicBolt {
    @Override
    public void execute(org.apache.storm.tuple.Tuple input, org.apache.storm.topology.BasicOutputCollector collector) {}

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {}
  }

  /** Stands in for a custom grouping, by its class name. */
  record CustomPlaceholder(String className) implements org.apache.storm.grouping.CustomStreamGrouping {
    @Override
    public void prepare(org.apache.storm.task.WorkerTopologyContext context, org.apache.storm.generated.GlobalStreamId stream,
        List<Integer> targetTasks) {}

    @Override
    public List<Integer> chooseTasks(int taskId, List<Object> values) {
      return List.of();
    }
  }
}
