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

package org.apache.storm.iceberg.kernel.env;

import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.task.TopologyContext;

/**
 * Which task a sink runs as. The topology is named by {@code topology.name}, which survives a
 * resubmission, so a new incarnation finds the WAL its predecessor left.
 *
 * @param topology the topology's name
 * @param component the bolt's component id
 * @param taskId Storm's task id
 * @param taskIndex the task's index within its component
 * @param componentTasks how many tasks the component has
 * @param spoutTasks how many spout tasks the topology has (0 when unknown)
 * @param boltsOnPath the most bolts a spout's tuple passes through ({@link BoltPaths}; 0 when unknown)
 */
public record TaskIdentity(
    String topology, String component, int taskId, int taskIndex, int componentTasks, int spoutTasks, int boltsOnPath) {

  public TaskIdentity(String topology, String component, int taskId, int taskIndex, int componentTasks) {
    this(topology, component, taskId, taskIndex, componentTasks, 0);
  }

  public TaskIdentity(String topology, String component, int taskId, int taskIndex, int componentTasks, int spoutTasks) {
    this(topology, component, taskId, taskIndex, componentTasks, spoutTasks, 0);
  }

  public static TaskIdentity of(Map<String, Object> topoConf, TopologyContext context) {
    Object name = topoConf.get(Config.TOPOLOGY_NAME);
    return new TaskIdentity(
        name != null ? name.toString() : context.getStormId(),
        context.getThisComponentId(),
        context.getThisTaskId(),
        context.getThisTaskIndex(),
        context.getComponentTasks(context.getThisComponentId()).size(),
        context.getRawTopology().get_spouts().keySet().stream().mapToInt(id -> context.getComponentTasks(id).size()).sum(),
        BoltPaths.longest(context.getRawTopology()));
  }
}
