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

package org.apache.storm.iceberg.spi.contract;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.TupleImpl;

/** Real Storm tuples from one source component, for mapper contract tests. */
public final class ContractTuples {
  private ContractTuples() {}

  /** A tuple whose fields are the map's keys, in its iteration order, holding its values. */
  public static ITuple of(Map<String, Object> values) {
    Fields fields = new Fields(new ArrayList<>(values.keySet()));
    GeneralTopologyContext context = new GeneralTopologyContext(
        new StormTopology(), new HashMap<>(), Map.of(1, "source"), Map.of("source", List.of(1)),
        Map.of("source", Map.of("default", fields)), "contract-1");
    return new TupleImpl(context, new ArrayList<>(values.values()), "source", 1, "default");
  }
}
