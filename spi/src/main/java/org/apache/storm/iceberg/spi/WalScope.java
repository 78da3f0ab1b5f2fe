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

package org.apache.storm.iceberg.spi;

import java.util.Objects;
import org.apache.iceberg.Table;

/**
 * Whose WAL entries a {@link WalStore} call is about: one committing task of one component of one
 * topology, writing one table under one WAL namespace. The topology is identified by its name, not
 * its id, so a resubmitted topology finds what its previous incarnation left.
 */
public final class WalScope {
  /**
   * The topology name of the scope the preflight check puts its probe entry under, with component
   * {@value #PREFLIGHT_COMPONENT} and task 0: no task of a real topology writes under it. A probe
   * left behind (its delete failed) holds no commit, and maintenance passes over it.
   */
  public static final String PREFLIGHT_TOPOLOGY = "storm-iceberg-preflight";
  /** The component name of the preflight probe's scope. */
  public static final String PREFLIGHT_COMPONENT = "preflight";

  private final Table table;
  private final String namespace;
  private final String topology;
  private final String component;
  private final int taskIndex;

  public WalScope(Table table, String namespace, String topology, String component, int taskIndex) {
    this.table = Objects.requireNonNull(table, "table");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.topology = Objects.requireNonNull(topology, "topology");
    this.component = Objects.requireNonNull(component, "component");
    this.taskIndex = taskIndex;
  }

  public Table table() {
    return table;
  }

  public String namespace() {
    return namespace;
  }

  public String topology() {
    return topology;
  }

  public String component() {
    return component;
  }

  public int taskIndex() {
    return taskIndex;
  }

  @Override
  public String toString() {
    return table.name() + "/" + namespace + "/" + topology + "/" + component + "/" + taskIndex;
  }
}
