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
