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

import org.apache.storm.iceberg.kernel.evolve.SchemaEvolver;
import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.iceberg.spi.UnfitValuesException;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writing task's schema evolution for one tuple that holds values the schema has no room for: the
 * order of the steps, so that every file in one commit is written against one schema. First the
 * change is checked against the batch's schema: when no change can hold the values the tuple is a
 * mapping error and nothing else happens. Then the open batch is sealed and handed off (committed,
 * or emitted to the committer), then the change is committed alone ({@link SchemaEvolver}); the
 * caller then opens a new batch, whose mapper and writers bind to the new schema.
 */
final class SchemaChange {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaChange.class);

  private final SchemaEvolver evolver;
  private final TupleIntake intake;
  private final TableLifecycle lifecycle;
  private final OutputCollector collector;

  /** @param evolver null when schema evolution is off: unfit values are then a mapping error */
  SchemaChange(SchemaEvolver evolver, TupleIntake intake, TableLifecycle lifecycle, OutputCollector collector) {
    this.evolver = evolver;
    this.intake = intake;
    this.lifecycle = lifecycle;
    this.collector = collector;
  }

  /**
   * @param closeOpenBatch seals and hands off the open batch (or drops it, when it holds no record)
   * @return whether the table's schema now holds the values; false when the tuple was failed or dead-lettered
   */
  boolean evolve(Tuple tuple, UnfitValuesException unfit, Runnable closeOpenBatch) {
    try {
      if (evolver == null) {
        throw unfit;
      }
      evolver.check(unfit);
    } catch (RecordMappingException refused) {
      intake.reject(tuple, refused);
      return false;
    }
    closeOpenBatch.run();
    try {
      evolver.evolve(unfit.values());
      return true;
    } catch (RecordMappingException refused) {
      intake.reject(tuple, refused);
    } catch (RuntimeException e) {
      Exception error = lifecycle.reportable(e);
      String fields = String.valueOf(unfit.values().keySet());
      LOG.warn("Cannot evolve the schema for tuple fields {}; failing the tuple", fields, Redaction.of(error));
      collector.reportError(error);
      intake.failedUnwritten(tuple);
      collector.fail(tuple);
    }
    return false;
  }
}
