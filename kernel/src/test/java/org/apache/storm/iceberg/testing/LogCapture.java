package org.apache.storm.iceberg.testing;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/** Captures what the storm-iceberg loggers write ("LEVEL message"), through a real log4j2 appender. */
public final class LogCapture implements AutoCloseable {
  public final List<String> lines = new CopyOnWriteArrayList<>();
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
  private final LoggerConfig loggerConfig = context.getConfiguration().getLoggerConfig("org.apache.storm.iceberg");
  private final AbstractAppender appender;

  public LogCapture() {
    appender =
        new AbstractAppender("capture-" + UUID.randomUUID(), null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
          }
        };
    appender.start();
    loggerConfig.addAppender(appender, Level.ALL, null);
    context.updateLoggers();
  }

  @Override
  public void close() {
    loggerConfig.removeAppender(appender.getName());
    context.updateLoggers();
    appender.stop();
  }
}
