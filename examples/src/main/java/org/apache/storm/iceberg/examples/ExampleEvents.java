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

package org.apache.storm.iceberg.examples;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/** The events every example writes: what {@link EventSpout} emits. */
public final class ExampleEvents {
  public static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "region", Types.StringType.get()),
          optional(3, "event_time", Types.TimestampType.withZone()),
          optional(4, "payload", Types.StringType.get()));

  /** identity(region), days(event_time). */
  public static final PartitionSpec BY_REGION_AND_DAY =
      PartitionSpec.builderFor(SCHEMA).identity("region").day("event_time").build();

  private ExampleEvents() {}

  /**
   * Options every example starts from: its table in the catalog {@code catalogProperties} describe
   * (the local Hadoop catalog unless the command line names another), created with {@code spec}.
   */
  public static org.apache.storm.iceberg.IcebergOptions.Builder options(
      java.util.Map<String, String> catalogProperties, String table, PartitionSpec spec) {
    return new org.apache.storm.iceberg.IcebergOptions.Builder()
        .withCatalogProperties(catalogProperties)
        .withTable(table)
        .withAutoCreate(SCHEMA, spec);
  }
}
