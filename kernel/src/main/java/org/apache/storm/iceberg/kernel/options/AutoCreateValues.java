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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Types;

/**
 * The {@code auto-create} schema and spec of {@code IcebergOptions.fromMap}. A schema is a list of
 * {@code "name type [required]"} columns (primitive types, for example {@code "event_time
 * timestamptz"}), or a string holding Iceberg's schema JSON. A spec is a list of transforms ({@code
 * "region"}, {@code "day(event_time)"}, {@code "bucket(16, id)"}, {@code "truncate(4, name)"}), or
 * Iceberg's spec JSON.
 */
final class AutoCreateValues {
  private static final Pattern TRANSFORM = Pattern.compile("(\\w+)\\(\\s*(?:(\\d+)\\s*,\\s*)?([\\w.]+)\\s*\\)");

  private AutoCreateValues() {}

  static Schema schema(Object value) {
    if (value == null) {
      throw new IllegalArgumentException(
          "'auto-create' needs a 'schema': a list of \"name type [required]\" columns or Iceberg schema JSON");
    }
    return value instanceof List<?> columns ? columns(columns) : SchemaParser.fromJson(value.toString());
  }

  /** The spec, unpartitioned when {@code value} is null. */
  static PartitionSpec spec(Schema schema, Object value) {
    if (value == null) {
      return PartitionSpec.unpartitioned();
    }
    return value instanceof List<?> transforms
        ? transforms(schema, transforms)
        : PartitionSpecParser.fromJson(schema, value.toString());
  }

  private static Schema columns(List<?> columns) {
    List<Types.NestedField> fields = new ArrayList<>();
    int id = 1;
    for (Object column : columns) {
      String[] parts = column.toString().trim().split("\\s+");
      boolean required = parts.length == 3 && parts[2].equalsIgnoreCase("required");
      if (parts.length < 2 || parts.length > 3 || (parts.length == 3 && !required)) {
        throw new IllegalArgumentException("auto-create column '" + column + "' is not \"name type [required]\"");
      }
      Types.NestedField.Builder field = required ? Types.NestedField.required(parts[0]) : Types.NestedField.optional(parts[0]);
      fields.add(field.withId(id++).ofType(Types.fromPrimitiveString(parts[1].toLowerCase(Locale.ROOT))).build());
    }
    return new Schema(fields);
  }

  private static PartitionSpec transforms(Schema schema, List<?> transforms) {
    PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
    for (Object value : transforms) {
      String transform = value.toString().trim();
      Matcher call = TRANSFORM.matcher(transform);
      if (!call.matches()) {
        spec.identity(transform);
        continue;
      }
      String column = call.group(3);
      switch (call.group(1).toLowerCase(Locale.ROOT)) {
        case "identity" -> spec.identity(column);
        case "year", "years" -> spec.year(column);
        case "month", "months" -> spec.month(column);
        case "day", "days" -> spec.day(column);
        case "hour", "hours" -> spec.hour(column);
        case "bucket" -> spec.bucket(column, width(call, transform));
        case "truncate" -> spec.truncate(column, width(call, transform));
        default -> throw new IllegalArgumentException("unknown partition transform '" + transform + "'");
      }
    }
    return spec.build();
  }

  private static int width(Matcher call, String transform) {
    if (call.group(2) == null) {
      throw new IllegalArgumentException("partition transform '" + transform + "' needs a width, as in bucket(16, id)");
    }
    return Integer.parseInt(call.group(2));
  }
}
