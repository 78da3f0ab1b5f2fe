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

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.blobstore.LocalFsBlobStore;
import org.apache.storm.nimbus.ILeaderElector;
import org.apache.storm.nimbus.NimbusInfo;

/**
 * Nimbus's local blob store without its sweep, for a LocalCluster. In local mode Storm 2.8 opens a
 * fresh {@link LocalFsBlobStore} on Nimbus's blob directory for every supervisor-side download and
 * for the localizer's blob update every 30 s, and forces each one's cleanup on: a sweep that runs at
 * once and deletes every empty key directory. Nimbus's {@code createBlob} creates a new key's
 * directory and then its first file; a sweep between the two deletes the directory and
 * {@code submitTopology} fails with {@code IOException: No such file or directory} (one CI run in
 * many met it). The sweep otherwise only deletes temporary files older than an hour, which a test
 * cluster never has. {@link TestLocalClusters} starts clusters with it.
 */
public final class SweeplessBlobStore extends LocalFsBlobStore {
  /** {@code conf} with the blob store's sweep off. */
  static Map<String, Object> withoutSweep(Map<String, Object> conf) {
    Map<String, Object> noSweep = new HashMap<>(conf);
    noSweep.put(Config.BLOBSTORE_CLEANUP_ENABLE, false);
    return noSweep;
  }

  @Override
  public void prepare(Map<String, Object> conf, String overrideBase, NimbusInfo nimbusInfo, ILeaderElector leaderElector) {
    super.prepare(withoutSweep(conf), overrideBase, nimbusInfo, leaderElector);
  }
}
