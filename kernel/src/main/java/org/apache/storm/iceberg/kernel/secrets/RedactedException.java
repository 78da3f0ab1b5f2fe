package org.apache.storm.iceberg.kernel.secrets;

/**
 * What the sink logs and reports in place of an error whose message (or a cause's, or a suppressed
 * error's) carried a secret: the original's message with its secrets masked ({@link Redaction}),
 * prefixed with the original's class name, and the original's stack trace, causes and suppressed
 * errors (themselves redacted where needed). Its type is not the original's, so the sink never
 * decides anything from one: it makes them only to log or report.
 */
public final class RedactedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String originalClassName;

  RedactedException(Throwable original, String redactedMessage) {
    super(original.getClass().getName() + (redactedMessage == null ? "" : ": " + redactedMessage));
    this.originalClassName = original.getClass().getName();
    setStackTrace(original.getStackTrace());
  }

  /** The class name of the error this stands for. */
  public String originalClassName() {
    return originalClassName;
  }
}
