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

package org.apache.storm.iceberg.wal;

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * Registers the {@code "hadoop-fs"} WAL store. Property {@code path} (required): the Hadoop file
 * system directory entries go under, for example {@code hdfs://namenode/storm-iceberg-wal}.
 */
@AutoService(WalStoreFactory.class)
public class HadoopFsWalStoreFactory implements WalStoreFactory {
  public static final String NAME = "hadoop-fs";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public WalStore create(Map<String, String> properties) {
    ProviderProperties.check("WAL store 'hadoop-fs'", properties, Set.of("path"), Set.of());
    return new HadoopFsWalStore(properties.get("path"));
  }
}
