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

import org.apache.storm.iceberg.DeadLetterFields;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a sink's dead-letter stream and logs each tuple that could not be written: where it came
 * from, the table, the column and the error. A real topology would write them somewhere durable (a
 * Kafka topic, a table of strings); a failure there fails the dead letter, and its tuple replays.
 */
public class DeadLetterLogBolt extends BaseBasicBolt {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetterLogBolt.class);

  @Override
  public void execute(Tuple letter, BasicOutputCollector collector) {
    LOG.warn("Not written to {} (column {}), from {}/{}: {}", letter.getStringByField(DeadLetterFields.TABLE),
        letter.getStringByField(DeadLetterFields.COLUMN), letter.getStringByField(DeadLetterFields.SOURCE_COMPONENT),
        letter.getStringByField(DeadLetterFields.SOURCE_STREAM), letter.getStringByField(DeadLetterFields.ERROR));
  }

  @Override
  public void declareOutputFields(OutputFieldsDeclarer declarer) {}
}
