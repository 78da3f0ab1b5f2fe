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

package org.apache.storm.iceberg.kernel.task;

import java.nio.file.Path;
import org.apache.storm.iceberg.kernel.ack.Holders;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.options.OptionsChecks;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.seal.TopologyChecks;

/**
 * The checks a writing task runs at prepare that need no table: the topology configuration ({@link
 * TopologyChecks#forWriter}), the providers on this worker's classpath, and the spill directory. A
 * task writing one table runs them before it opens the table; a routing task runs them once at
 * prepare, so a broken configuration fails there and not at the first tuple of each table.
 */
public final class WriterChecks {
  private WriterChecks() {}

  /**
   * @return the spill directory, checked writable
   * @throws RuntimeException naming the fix, when the task cannot run with this configuration
   */
  public static Path beforeAnyTable(SinkSettings settings, TaskEnvironment env) {
    TopologyChecks.forWriter(settings, env);
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    SinkSettings.Providers providers = settings.providers();
    Object mapper = providers.recordMapper().resolve(loader);
    if (settings.schemaEvolution()) {
      OptionsChecks.requireEvolvingMapper(mapper);
    }
    if (providers.fileFormat() != null) {
      providers.fileFormat().validate(loader);
    }
    if (providers.multiRecordMapper() != null) {
      providers.multiRecordMapper().validate(loader);
    }
    providers.sealPolicies().forEach(policy -> policy.validate(loader));
    return Holders.requireSpillDirectory(settings.spillPath());
  }
}
