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

package org.apache.storm.iceberg.kernel.secrets;

import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.spi.Redaction;
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
