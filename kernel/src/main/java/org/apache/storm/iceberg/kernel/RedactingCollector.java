package org.apache.storm.iceberg.kernel;

import java.util.Collection;
import java.util.List;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;

/**
 * The collector every task of the sink gets ({@link TaskEnvironment}): Storm's own, except that an
 * error is {@link Redaction redacted} before {@link #reportError} hands it to Storm, which logs it
 * and shows it in the UI. Built in one place so that no reporting site can forget to redact.
 */
final class RedactingCollector implements IOutputCollector {
  private final OutputCollector delegate;

  private RedactingCollector(OutputCollector delegate) {
    this.delegate = delegate;
  }

  static OutputCollector wrap(OutputCollector collector) {
    return new OutputCollector(new RedactingCollector(collector));
  }

  @Override
  public void reportError(Throwable error) {
    delegate.reportError(Redaction.of(error));
  }

  @Override
  public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
    return delegate.emit(streamId, anchors, tuple);
  }

  @Override
  public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
    delegate.emitDirect(taskId, streamId, anchors, tuple);
  }

  @Override
  public void ack(Tuple input) {
    delegate.ack(input);
  }

  @Override
  public void fail(Tuple input) {
    delegate.fail(input);
  }

  @Override
  public void resetTimeout(Tuple input) {
    delegate.resetTimeout(input);
  }

  @Override
  public void flush() {
    delegate.flush();
  }
}
