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

package org.apache.storm.iceberg.kernel.ack;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.tuple.Tuple;

/** Tuples held as they are, in a list: the committer's descriptors, a few per commit. */
final class WholeTuples implements HeldTuples {
  private final List<Tuple> tuples;
  private boolean settled;

  WholeTuples(Collection<? extends Tuple> tuples) {
    this.tuples = new ArrayList<>(tuples);
  }

  @Override
  public void hold(Tuple tuple) {
    tuples.add(tuple);
  }

  @Override
  public int size() {
    return tuples.size();
  }

  @Override
  public List<Tuple> materialize() {
    requireUnsettled();
    return Collections.unmodifiableList(tuples);
  }

  @Override
  public void ackAll(IOutputCollector collector) {
    requireUnsettled();
    settled = true;
    tuples.forEach(collector::ack);
  }

  @Override
  public void failAll(IOutputCollector collector) {
    requireUnsettled();
    settled = true;
    tuples.forEach(collector::fail);
  }

  private void requireUnsettled() {
    if (settled) {
      throw new IllegalStateException("these held tuples are settled already");
    }
  }

  @Override
  public void release() {
    // Nothing outside the heap.
  }

  @Override
  public String toString() {
    return tuples.size() + " held tuples";
  }
}
