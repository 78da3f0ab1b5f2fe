package org.apache.storm.iceberg.kernel.secrets;

import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.task.OutputCollector;

/**
 * The collector every task of the sink reports through ({@link TaskEnvironment} wraps the one Storm
 * gives it): Storm's own, except that an error is {@link Redaction redacted} before {@link
 * #reportError} hands it to Storm, which logs it and shows it in the UI. Built in one place so that
 * no reporting site can forget to redact.
 */
public final class RedactingCollector extends OutputCollector {
  private RedactingCollector(OutputCollector collector) {
    super(collector);
  }

  public static OutputCollector wrap(OutputCollector collector) {
    return collector instanceof RedactingCollector ? collector : new RedactingCollector(collector);
  }

  @Override
  public void reportError(Throwable error) {
    super.reportError(Redaction.of(error));
  }
}
