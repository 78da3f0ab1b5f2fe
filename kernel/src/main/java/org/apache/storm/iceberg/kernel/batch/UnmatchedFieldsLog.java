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

package org.apache.storm.iceberg.kernel.batch;

import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.iceberg.Schema;
import org.apache.storm.iceberg.spi.FieldMatchingMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts and logs the tuple fields a {@link FieldMatchingMapper} writes into no column: each field
 * once per schema id, in {@code iceberg-fields-unmatched} and one warning, however many tuples
 * carry it. A field the table has no column for, under any name it ever gave one (a producer added
 * or renamed the field, or the column was dropped), is data going nowhere; this makes it seen.
 *
 * <p>Only mappers that match fields by name report: the kernel cannot tell which fields any other
 * mapper means to leave unread. The fields the sink reads itself (a row-level change's operation
 * and sequence number) are not reported, nor what a narrower schema leaves out (a delete is mapped
 * against the key columns alone). One task's executor thread calls it.
 */
final class UnmatchedFieldsLog implements FieldMatchingMapper.UnmatchedFields {
  private static final Logger LOG = LoggerFactory.getLogger(UnmatchedFieldsLog.class);

  private final String table;
  private final Predicate<Schema> fullSchema;
  private final SinkMetrics metrics;
  private final Map<Integer, Set<String>> reportedBySchemaId = new HashMap<>();
  private final Set<String> readBySink;

  /**
   * @param fullSchema whether a schema the mapper reports against is the batch's whole one, not a narrower one
   * @param readBySink fields the sink reads itself, never reported
   */
  UnmatchedFieldsLog(String table, Predicate<Schema> fullSchema, SinkMetrics metrics, Set<String> readBySink) {
    this.table = table;
    this.fullSchema = fullSchema;
    this.metrics = metrics;
    this.readBySink = readBySink;
  }

  @Override
  public void found(Schema schema, List<String> fields) {
    if (!fullSchema.test(schema)) {
      return;
    }
    Set<String> reported = reportedBySchemaId.computeIfAbsent(schema.schemaId(), id -> new HashSet<>());
    for (String field : fields) {
      if (!readBySink.contains(field) && reported.add(field)) {
        metrics.fieldUnmatched();
        LOG.warn(
            "Tuple field '{}' matches no column of table {} (schema id {}), under a current or a former name:"
                + " its values are not written. Add the column, or rename the field in the stream; logged once"
                + " per field and schema, counted in iceberg-fields-unmatched",
            field, table, schema.schemaId());
      }
    }
  }
}
