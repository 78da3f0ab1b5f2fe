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
  private final LoggerConfig loggerConfig;
  private final org.apache.logging.log4j.Level previousLevel;
  private final AbstractAppender appender;

  /** Captures the storm-iceberg loggers at the level log4j2-test.xml sets. */
  public LogCapture() {
    this("org.apache.storm.iceberg", null);
  }

  /**
   * Captures everything from {@code loggerName} down ("" for every logger), at {@code level} or
   * above when given (the logger's level is lowered for the capture and restored after).
   */
  public LogCapture(String loggerName, Level level) {
    this.loggerConfig = loggerName.isEmpty()
        ? context.getConfiguration().getRootLogger()
        : context.getConfiguration().getLoggerConfig(loggerName);
    this.previousLevel = loggerConfig.getLevel();
    if (level != null) {
      loggerConfig.setLevel(level);
    }
    appender =
        new AbstractAppender("capture-" + UUID.randomUUID(), null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            StringBuilder line = new StringBuilder(event.getLevel() + " " + event.getMessage().getFormattedMessage());
            for (Throwable t = event.getThrown(); t != null; t = t.getCause()) {
              line.append(" | ").append(t);
              for (Throwable suppressed : t.getSuppressed()) {
                line.append(" | suppressed ").append(suppressed);
              }
            }
            lines.add(line.toString());
          }
        };
    appender.start();
    loggerConfig.addAppender(appender, Level.ALL, null);
    context.updateLoggers();
  }

  @Override
  public void close() {
    loggerConfig.removeAppender(appender.getName());
    loggerConfig.setLevel(previousLevel);
    context.updateLoggers();
    appender.stop();
  }
}
