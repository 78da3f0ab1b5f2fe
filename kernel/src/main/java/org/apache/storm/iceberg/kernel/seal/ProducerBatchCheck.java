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

package org.apache.storm.iceberg.kernel.seal;

import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.iceberg.kernel.env.BoltPaths;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.utils.ObjectReader;

/**
 * Storm's producer batching ({@code topology.producer.batch.size} above 1) is safe for a sink that
 * acks a whole commit at once only while no executor's receive queue can fill: this refuses a
 * configuration under which one can.
 *
 * <p>Why, in Storm 2.8: an executor batches what it sends to a local receive queue and hands the
 * batch over when it is full or at the next flush tuple, flushing only the queues it marked on a
 * direct send. A send that found the queue full waits in the executor's pending emits; retried from
 * there it joins the batch unmarked, and what a partial flush into a full queue leaves behind loses
 * its mark too. Such tuples (tuples, acks, acker inits, the acker's completions) then wait for the
 * same executor's next send to that queue, which, once the spout has reached its pending limit,
 * never comes; and a spout blocked flushing into the acker's full queue while the acker waits for
 * room in the spout's deadlocks both. A sink task holds up to a batch of tuples and acks them all
 * when the commit lands, so every queue on the way sees bursts up to the tuples the spouts may have
 * pending. Queues that can hold all of them never fill: a spout's holds at most its own pending
 * tuples' completions, the sink's at most every pending tuple, the acker's one init for each and one
 * ack from every bolt on the tuple's way ({@link BoltPaths}): one for {@code IcebergBolt} right
 * behind a spout, two for the split sink, whose writer acks the tuple and whose committer, acking a
 * descriptor, acks every tuple the descriptor is anchored to.
 */
public final class ProducerBatchCheck {
  /** Storm's default {@code topology.executor.receive.buffer.size}. */
  static final int STORM_DEFAULT_RECEIVE_BUFFER = 32_768;

  private ProducerBatchCheck() {}

  /**
   * Passes when the topology runs without producer batching, or when every receive queue can hold
   * the acker's messages for every tuple its spouts may have pending: an init, and an ack from each
   * bolt on the tuple's way (at least one; {@link TaskIdentity#boltsOnPath}).
   *
   * @throws IllegalStateException naming the settings to change
   */
  public static void require(TaskIdentity task, Map<String, Object> conf) {
    int producerBatch = ObjectReader.getInt(conf.get(Config.TOPOLOGY_PRODUCER_BATCH_SIZE), 1);
    if (producerBatch <= 1) {
      return;
    }
    String batching = "topology.producer.batch.size " + producerBatch;
    String keepOne = "or keep topology.producer.batch.size at 1";
    Object maxPending = conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING);
    if (maxPending == null) {
      throw new IllegalStateException(batching + " needs topology.max.spout.pending: without it the spouts' pending"
          + " tuples are unbounded, an executor receive queue can fill, and Storm then leaves tuples unsent in a producer"
          + " batch and the topology stalls; set topology.max.spout.pending and topology.executor.receive.buffer.size"
          + " above " + times(messagesPerTuple(task)) + " the pending tuples, " + keepOne);
    }
    int configured = ObjectReader.getInt(conf.get(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE), STORM_DEFAULT_RECEIVE_BUFFER);
    if (producerBatch > configured / 2) {
      throw new IllegalStateException(batching + " is more than half of topology.executor.receive.buffer.size ("
          + configured + "): Storm's worker refuses to start (in LocalCluster it halts the JVM); raise"
          + " topology.executor.receive.buffer.size or lower topology.producer.batch.size");
    }
    // Storm rounds each queue up to a power of two.
    long receive = powerOfTwoAtLeast(configured);
    long perSpoutTask = ObjectReader.getInt(maxPending);
    int spoutTasks = Math.max(1, task.spoutTasks());
    long pending = perSpoutTask * spoutTasks;
    int messagesPerTuple = messagesPerTuple(task);
    if (receive > messagesPerTuple * pending) {
      return;
    }
    throw new IllegalStateException(batching + " can stall this topology: with topology.max.spout.pending "
        + perSpoutTask + " (" + pending + " tuples pending in all, over " + spoutTasks
        + (spoutTasks == 1 ? " spout task" : " spout tasks") + ") an executor receive queue"
        + " (topology.executor.receive.buffer.size " + receive + ") can fill when a commit acks its tuples at once,"
        + " and Storm then leaves tuples unsent in a producer batch; raise topology.executor.receive.buffer.size to"
        + " at least " + powerOfTwoAtLeast(messagesPerTuple * pending + 1) + " (above " + times(messagesPerTuple)
        + " the pending tuples: each can have an init and " + acks(messagesPerTuple - 1) + " waiting at the acker),"
        + " lower topology.max.spout.pending (and withCommitIntervalRecords with it), " + keepOne);
  }

  /** What the acker may hold for one pending tuple: its init, and an ack from each bolt on its way. */
  private static int messagesPerTuple(TaskIdentity task) {
    return 1 + Math.max(1, task.boltsOnPath());
  }

  private static String times(int n) {
    return n == 2 ? "twice" : n + " times";
  }

  private static String acks(int bolts) {
    return bolts == 1 ? "an ack" : "an ack from each of the " + bolts + " bolts on its way";
  }

  /** The smallest power of two not below {@code n}, as Storm sizes a receive queue. */
  static long powerOfTwoAtLeast(long n) {
    return n <= 1 ? 1 : Long.highestOneBit(n - 1) << 1;
  }
}
