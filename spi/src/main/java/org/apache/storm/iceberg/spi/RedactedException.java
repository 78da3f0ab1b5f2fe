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

package org.apache.storm.iceberg.spi;

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
