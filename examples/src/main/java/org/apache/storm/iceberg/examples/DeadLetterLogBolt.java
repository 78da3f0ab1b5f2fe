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
