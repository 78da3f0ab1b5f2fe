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

package org.apache.storm.iceberg.kernel.options;

import java.util.List;

/**
 * The checks of a routing sink's options ({@code withTableRouter}), run on the submitting client:
 * either a table or a router, never both; the allowed namespaces well formed; and the combinations a
 * routing sink cannot honour refused, each with the fix.
 */
public final class RoutingChecks {
  private RoutingChecks() {}

  /** Checks the table-or-router choice and the routing settings; the caller checks a plain table's name. */
  static void check(SinkSettings settings, ClassLoader loader, List<String> allowedNamespaces) {
    SinkSettings.Routing routing = settings.routing();
    String table = settings.target().table();
    if (routing == null) {
      if (!allowedNamespaces.isEmpty()) {
        throw new IllegalArgumentException("withAllowedNamespaces limits the tables a routing sink writes, but no"
            + " withTableRouter is set: add a router, or remove withAllowedNamespaces");
      }
      return;
    }
    if (table != null) {
      throw new IllegalArgumentException("Both withTable(\"" + table + "\") and withTableRouter(" + routing.router()
          + ") are set: a routing sink takes each tuple's table from its router; remove one of them");
    }
    routing.router().validate(loader);
    for (String namespace : routing.allowedNamespaces()) {
      if (namespace == null || namespace.isBlank() || List.of(namespace.split("\\.", -1)).stream().anyMatch(String::isBlank)) {
        throw new IllegalArgumentException("withAllowedNamespaces needs namespaces such as \"db\" or \"db.events\""
            + " (no empty parts), got '" + namespace + "'");
      }
    }
  }

  /**
   * Refuses routing where a sink cannot route: the Trident states and the partition grouping write one table.
   *
   * @param sink how the user built it, for example {@code "IcebergWriterBolt"}
   */
  public static void refuseRouting(SinkSettings settings, String sink, String instead) {
    if (settings.routing() != null) {
      throw new IllegalArgumentException(sink + " writes one table and does not route tuples (withTableRouter("
          + settings.routing().router() + ")): " + instead);
    }
  }
}
