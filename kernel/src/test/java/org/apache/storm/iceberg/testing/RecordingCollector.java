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

package org.apache.storm.iceberg.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;

/**
 * A real {@link OutputCollector} over a recorder of acks, fails, emits and reported errors. Tuples are
 * recorded as the {@link Tuples#original} the sink's value-free copies stand for, so tests read
 * their values and compare them by identity.
 */
public final class RecordingCollector implements IOutputCollector {
  public final List<Tuple> acked = new CopyOnWriteArrayList<>();
  public final List<Tuple> failed = new CopyOnWriteArrayList<>();
  public final List<Throwable> errors = new CopyOnWriteArrayList<>();
  public final List<Emitted> emitted = new CopyOnWriteArrayList<>();
  /** Every emit, ack and fail in the order they happened: "emit", "ack", "fail". */
  public final List<String> calls = new CopyOnWriteArrayList<>();

  /** One emitted tuple with its anchors. */
  public record Emitted(String stream, List<Tuple> anchors, List<Object> values, List<Tuple> anchorsAsGiven) {}

  /** The tuples acked, as the sink passed them (value-free copies), in order. */
  public final List<Tuple> ackedAsGiven = new CopyOnWriteArrayList<>();

  /** The task ids emits reach; one downstream task unless a test says none. */
  public volatile List<Integer> emitTargets = List.of(2);

  public OutputCollector collector() {
    return new OutputCollector(this);
  }

  public List<Long> ackedIds() {
    return ids(acked);
  }

  public List<Long> failedIds() {
    return ids(failed);
  }

  private static List<Long> ids(List<Tuple> tuples) {
    List<Long> ids = new ArrayList<>();
    tuples.forEach(t -> ids.add(t.getLongByField("id")));
    return ids;
  }

  @Override
  public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
    calls.add("emit");
    List<Tuple> given = anchors == null ? List.of() : List.copyOf(anchors);
    emitted.add(new Emitted(streamId, given.stream().map(Tuples::original).toList(), tuple, given));
    return emitTargets;
  }

  @Override
  public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
    emit(streamId, anchors, tuple);
  }

  /** When set, the next ack throws instead: the worker died after the commit, before acking. */
  public final java.util.concurrent.atomic.AtomicBoolean dieOnNextAck = new java.util.concurrent.atomic.AtomicBoolean();

  /** What a worker dying before its acks looks like to the task. */
  public static final class WorkerDied extends RuntimeException {
    WorkerDied() {
      super("injected: the worker died before the ack");
    }
  }

  @Override
  public void ack(Tuple input) {
    if (dieOnNextAck.compareAndSet(true, false)) {
      throw new WorkerDied();
    }
    calls.add("ack");
    acked.add(Tuples.original(input));
    ackedAsGiven.add(input);
  }

  @Override
  public void fail(Tuple input) {
    calls.add("fail");
    failed.add(Tuples.original(input));
  }

  @Override
  public void resetTimeout(Tuple input) {}

  @Override
  public void flush() {}

  @Override
  public void reportError(Throwable error) {
    errors.add(error);
  }
}
