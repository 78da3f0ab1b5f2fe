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

import com.google.auto.service.AutoService;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.iceberg.spi.TableRouter;
import org.apache.storm.iceberg.spi.TableRouterFactory;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.Tuple;

/** The routers the kernel ships, registered by name: {@code field}, {@code stream} and {@code static}. */
public final class TableRouters {
  static final String ROUTE_PREFIX = "route.";
  private static final Pattern NAME_PART = Pattern.compile("[A-Za-z0-9_-]+");

  private TableRouters() {}

  /**
   * {@code "field"}: {@code template}, such as {@code db.events_{type}}, with each {@code {field}}
   * replaced by that tuple field's value.
   */
  @AutoService(TableRouterFactory.class)
  public static final class ByField implements TableRouterFactory {
    @Override
    public String name() {
      return "field";
    }

    @Override
    public TableRouter create(Map<String, String> properties) {
      ProviderProperties.check("table router 'field'", properties, Set.of("template"), Set.of());
      RouteTemplate template = RouteTemplate.parse("table router 'field'", "template", properties.get("template"));
      if (template.names().isEmpty()) {
        throw new IllegalArgumentException("table router 'field' template '" + template + "' names no field; write"
            + " one as {field}, for example db.events_{type}, or use withTable for one table");
      }
      return tuple -> template.fill(field -> namePart(template, "field '" + field + "'", fieldValue(tuple, field, template)));
    }
  }

  /**
   * {@code "stream"}: the tuple's stream id, through {@code template} (default {@code {stream}}, the
   * id itself), for example {@code db.{stream}}.
   */
  @AutoService(TableRouterFactory.class)
  public static final class ByStream implements TableRouterFactory {
    @Override
    public String name() {
      return "stream";
    }

    @Override
    public TableRouter create(Map<String, String> properties) {
      ProviderProperties.check("table router 'stream'", properties, Set.of(), Set.of("template"));
      RouteTemplate template =
          RouteTemplate.parse("table router 'stream'", "template", properties.getOrDefault("template", "{stream}"));
      if (!template.names().stream().allMatch("stream"::equals)) {
        throw new IllegalArgumentException("table router 'stream' template '" + template + "' may name only {stream}");
      }
      return tuple -> template.fill(name -> namePart(template, "stream id", streamOf(tuple)));
    }
  }

  /**
   * {@code "static"}: a fixed map, {@code route.<value>: <table>}, from the value of {@code field}
   * (or, without {@code field}, the stream id) to a table; {@code default} takes every other value,
   * which without it is a mapping error.
   */
  @AutoService(TableRouterFactory.class)
  public static final class Static implements TableRouterFactory {
    @Override
    public String name() {
      return "static";
    }

    @Override
    public TableRouter create(Map<String, String> properties) {
      Map<String, String> routes = new TreeMap<>();
      Map<String, String> others = new TreeMap<>();
      properties.forEach((key, table) -> (key.startsWith(ROUTE_PREFIX) ? routes : others)
          .put(key.startsWith(ROUTE_PREFIX) ? key.substring(ROUTE_PREFIX.length()) : key, table));
      ProviderProperties.check("table router 'static' (besides its route.<value> entries)", others, Set.of(),
          Set.of("field", "default"));
      if (routes.isEmpty() && others.get("default") == null) {
        throw new IllegalArgumentException("table router 'static' has no routes: add route.<value>: <table> entries"
            + " (for example route.click: db.clicks), and perhaps a default");
      }
      return new StaticRouter(routes, others.get("field"), others.get("default"));
    }
  }

  /** {@link Static}'s router: a serializable map lookup. */
  private record StaticRouter(Map<String, String> routes, String field, String fallback) implements TableRouter {
    @Override
    public String route(ITuple tuple) {
      String value = field == null ? streamOf(tuple) : fieldValue(tuple, field, null);
      String table = routes.getOrDefault(value, fallback);
      if (table == null) {
        throw new RecordMappingException(field, "table router 'static' has no route for "
            + (field == null ? "stream '" : "value '") + value + "' and no default; known: " + routes.keySet());
      }
      return table;
    }
  }

  static String fieldValue(ITuple tuple, String field, RouteTemplate template) {
    if (!tuple.contains(field)) {
      throw new RecordMappingException(field, "the tuple has no field '" + field + "' for the table router"
          + (template == null ? "" : "'s template '" + template + "'"));
    }
    Object value = tuple.getValueByField(field);
    if (value == null) {
      throw new RecordMappingException(field, "field '" + field + "' is null, so the table router cannot name a table");
    }
    if (value instanceof byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    if (value instanceof Enum<?> constant) {
      return constant.name();
    }
    if (!(value instanceof CharSequence || value instanceof Number || value instanceof Boolean)) {
      throw new RecordMappingException(field, "field '" + field + "' holds a " + value.getClass().getName()
          + ", which the table router cannot name a table by: route by a string, number, boolean, enum or UTF-8"
          + " byte[] field");
    }
    return value.toString();
  }

  /**
   * {@code value}, to be put into a table name, when it holds only letters, digits, '_' and '-': a
   * '.' would move the row to another namespace, and other characters make names some catalogs refuse.
   * A template that is one placeholder alone ({@code {stream}}) takes the whole name from the value,
   * dots included; {@link RouteCheck} checks it then.
   *
   * @param what where the value came from, for the message ("field 'type'")
   */
  static String namePart(RouteTemplate template, String what, String value) {
    if (!template.isWholeName() && !NAME_PART.matcher(value).matches()) {
      throw new RecordMappingException(null, what + " holds '" + value + "', which cannot be part of a table name:"
          + " a routed value may hold only letters, digits, '_' and '-' (a '.' would move the row to another"
          + " namespace)");
    }
    return value;
  }

  static String streamOf(ITuple tuple) {
    if (!(tuple instanceof Tuple boltTuple)) {
      throw new RecordMappingException(null, "a Trident tuple has no stream id to route by");
    }
    return boltTuple.getSourceStreamId();
  }
}
