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

package org.apache.storm.iceberg.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.Constants;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * Real Storm {@link Tuple}s from one source component (default "events") with the given fields, and ticks.
 * Each tuple is anchored to its own root id, unique in the JVM, so {@link #original} can find it again
 * from the value-free copy a sink acks or fails.
 */
public final class Tuples {
  public static final String SOURCE = "events";
  private static final AtomicLong NEXT_ROOT = new AtomicLong(1);
  private static final Map<Long, Tuple> BY_ROOT = new ConcurrentHashMap<>();
  private final String source;
  private final Fields fields;
  private final GeneralTopologyContext context;

  public Tuples(String... fieldNames) {
    this(SOURCE, fieldNames);
  }

  /** Tuples from component {@code source}. */
  public static Tuples from(String source, String... fieldNames) {
    return new Tuples(source, fieldNames);
  }

  private Tuples(String source, String[] fieldNames) {
    this.source = source;
    this.fields = new Fields(fieldNames);
    Map<Integer, String> taskToComponent = new HashMap<>();
    taskToComponent.put(1, source);
    taskToComponent.put((int) Constants.SYSTEM_TASK_ID, Constants.SYSTEM_COMPONENT_ID);
    Map<String, List<Integer>> componentTasks = new HashMap<>();
    componentTasks.put(source, List.of(1));
    componentTasks.put(Constants.SYSTEM_COMPONENT_ID, List.of((int) Constants.SYSTEM_TASK_ID));
    Map<String, Map<String, Fields>> streams = new HashMap<>();
    streams.put(source, Map.of("default", fields));
    streams.put(Constants.SYSTEM_COMPONENT_ID, Map.of(Constants.SYSTEM_TICK_STREAM_ID, new Fields("rate_secs")));
    this.context =
        new GeneralTopologyContext(new StormTopology(), new HashMap<>(), taskToComponent, componentTasks, streams, "test-1");
  }

  public Tuple tuple(Object... values) {
    long root = NEXT_ROOT.getAndIncrement();
    Tuple tuple = new TupleImpl(context, java.util.Arrays.asList(values), source, 1, "default", MessageId.makeRootId(root, root));
    BY_ROOT.put(root, tuple);
    return tuple;
  }

  /**
   * The tuple this class made that {@code copy} stands for (the sink acks value-free copies of the
   * tuples it holds, with the same message id), or {@code copy} itself when it is no such copy.
   */
  public static Tuple original(Tuple copy) {
    Map<Long, Long> anchors = copy.getMessageId().getAnchorsToIds();
    if (anchors.size() != 1) {
      return copy;
    }
    Tuple original = BY_ROOT.get(anchors.keySet().iterator().next());
    if (original == null || original == copy) {
      return copy;
    }
    if (original.getSourceTask() != copy.getSourceTask() || !original.getSourceStreamId().equals(copy.getSourceStreamId())) {
      throw new AssertionError("copy " + copy + " does not match the tuple of its root id: " + original);
    }
    return original;
  }

  public Tuple tick() {
    return new TupleImpl(
        context, List.of(1), Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID, Constants.SYSTEM_TICK_STREAM_ID);
  }
}
