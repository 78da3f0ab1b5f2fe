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

import org.apache.storm.Config;
import org.apache.storm.DaemonConfig;
import org.apache.storm.LocalCluster;

/** Starts the LocalClusters tests use: as {@code new LocalCluster()}, with two changes for tests. */
public final class TestLocalClusters {
  private TestLocalClusters() {}

  /**
   * A LocalCluster whose Nimbus keeps blobs in a {@link SweeplessBlobStore} (Storm's local-mode sweep
   * can fail a submission), and whose supervisor does not wait after killing a worker ({@code
   * supervisor.worker.shutdown.sleep.secs} 0, from 3): in local mode the kill has already shut the
   * in-process worker down, and the wait held the freed slot, which the next topology submitted
   * often needed (its first tuple came about 6.6 s after submission instead of 3.8 to 4.8 s).
   */
  public static LocalCluster start() throws Exception {
    return new LocalCluster.Builder()
        .withDaemonConf(Config.TOPOLOGY_ENABLE_MESSAGE_TIMEOUTS, true)
        .withDaemonConf(DaemonConfig.NIMBUS_BLOBSTORE, SweeplessBlobStore.class.getName())
        .withDaemonConf(Config.SUPERVISOR_WORKER_SHUTDOWN_SLEEP_SECS, 0)
        .build();
  }
}
