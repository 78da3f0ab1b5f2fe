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
import org.apache.iceberg.Table;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;

/**
 * Registers the default WAL store, {@code "table-fileio"}. It takes no properties, and refuses a
 * table whose FileIO cannot list by prefix.
 */
@AutoService(WalStoreFactory.class)
public class TableFileIoWalStoreFactory implements WalStoreFactory {
  public static final String NAME = "table-fileio";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public WalStore create(Map<String, String> properties) {
    ProviderProperties.check("WAL store 'table-fileio'", properties, Set.of(), Set.of());
    return new TableFileIoWalStore();
  }

  @Override
  public void validate(Table table) {
    TableFileIoWalStore.requireListable(table);
  }
}
