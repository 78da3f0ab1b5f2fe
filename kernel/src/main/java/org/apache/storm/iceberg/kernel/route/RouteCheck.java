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

package org.apache.storm.iceberg.kernel.route;

import java.util.List;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * Whether a name a router returned may be written: a valid table identifier ({@code
 * namespace.table}, no empty part, no whitespace, control character or path separator) in one of
 * the allowed namespaces (exactly: {@code db} does not allow {@code db.sub}), or in any when none
 * are set.
 */
final class RouteCheck {
  private static final Pattern PART = Pattern.compile("[^\\s\\p{Cntrl}/\\\\]+");

  private final List<String> allowedNamespaces;

  RouteCheck(List<String> allowedNamespaces) {
    this.allowedNamespaces = List.copyOf(allowedNamespaces);
  }

  /**
   * @throws RecordMappingException naming the route and the allowed namespaces, when it may not be written
   */
  TableIdentifier check(String route) {
    if (route == null) {
      throw new RecordMappingException(null, "the table router returned no table name");
    }
    String[] parts = route.split("\\.", -1);
    for (String part : parts) {
      if (!PART.matcher(part).matches()) {
        throw new RecordMappingException(null, "the table router named '" + route + "', which is not a valid table"
            + " name: write namespace.table, with no empty part, whitespace, control character, '/' or '\\'");
      }
    }
    if (parts.length < 2) {
      throw new RecordMappingException(null, "the table router named '" + route + "', which has no namespace:"
          + " write namespace.table");
    }
    TableIdentifier identifier = TableIdentifier.parse(route);
    if (!allowedNamespaces.isEmpty() && !allowedNamespaces.contains(identifier.namespace().toString())) {
      throw new RecordMappingException(null, "the table router named '" + route + "', in namespace '"
          + identifier.namespace() + "', outside the allowed namespaces " + allowedNamespaces
          + " (withAllowedNamespaces)");
    }
    return identifier;
  }
}
