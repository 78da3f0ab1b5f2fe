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

package org.apache.storm.iceberg.kernel.task;

import java.util.List;
import java.util.Map;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.SourcePositionExtractor;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.utils.Utils;

/**
 * The check a writing task with source positions makes at prepare: each source partition must reach
 * one task, or two tasks would each hold, skip and commit its offsets on their own. A {@code
 * fieldsGrouping} on some of the extractor's partition fields gives that, as do a global grouping
 * and a component of one task.
 */
public final class SourceOwnership {
  private SourceOwnership() {}

  /** @throws IllegalStateException naming the stream and the grouping to use */
  public static void require(SinkSettings settings, TopologyContext context, ClassLoader loader) {
    if (settings.sourcePositions() == null) {
      return;
    }
    String component = context.getThisComponentId();
    int tasks = context.getComponentTasks(component).size();
    if (tasks <= 1) {
      return;
    }
    require(settings, component, tasks, context.getThisSources(), loader);
  }

  /**
   * {@link #require(SinkSettings, TopologyContext, ClassLoader)} for {@code component}, of {@code
   * tasks} tasks, fed by {@code sources}.
   */
  public static void require(
      SinkSettings settings, String component, int tasks, Map<GlobalStreamId, Grouping> sources, ClassLoader loader) {
    SinkSettings.SourcePositions positions = settings.sourcePositions();
    if (positions == null || tasks <= 1) {
      return;
    }
    SourcePositionExtractor extractor = positions.extractor().resolve(loader);
    List<String> partitionFields = extractor.partitionFields();
    for (Map.Entry<GlobalStreamId, Grouping> input : sources.entrySet()) {
      String stream = input.getKey().get_streamId();
      if (stream.startsWith("__")) {
        continue;
      }
      Grouping grouping = input.getValue();
      boolean owned = grouping.is_set_fields() && partitionFields.containsAll(grouping.get_fields());
      if (!owned) {
        throw new IllegalStateException(
            "Component '" + component + "' writes " + (settings.routing() == null ? settings.target().table()
                : "the tables its router names") + " with source positions,"
                + " so each source partition must reach one of its tasks, but stream '" + stream + "' of '"
                + input.getKey().get_componentId() + "' reaches it by " + describe(grouping)
                + ": use fieldsGrouping(\"" + input.getKey().get_componentId() + "\", new Fields("
                + String.join(", ", partitionFields.stream().map(field -> "\"" + field + "\"").toList()) + "))");
      }
    }
  }

  /** The grouping's kind, and a custom grouping's class (a grouping by the table's partition ignores the source's). */
  private static String describe(Grouping grouping) {
    if (!grouping.is_set_custom_serialized()) {
      return grouping.getSetField().getFieldName() + " grouping";
    }
    try {
      return "custom grouping " + Utils.javaDeserialize(grouping.get_custom_serialized(), Object.class).getClass().getName();
    } catch (RuntimeException unreadable) {
      return "a custom grouping";
    }
  }
}
