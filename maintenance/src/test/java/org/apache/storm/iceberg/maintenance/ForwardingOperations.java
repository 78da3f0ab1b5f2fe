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

package org.apache.storm.iceberg.maintenance;

import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/** A real table's operations, passed through: a test overrides the one it fails or changes. */
class ForwardingOperations implements TableOperations {
  final TableOperations real;

  ForwardingOperations(Table table) {
    this.real = ((HasTableOperations) table).operations();
  }

  /** The table over these operations, under {@code table}'s name. */
  Table table(Table table) {
    return new BaseTable(this, table.name());
  }

  @Override
  public TableMetadata current() {
    return real.current();
  }

  @Override
  public TableMetadata refresh() {
    return real.refresh();
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    real.commit(base, metadata);
  }

  @Override
  public FileIO io() {
    return real.io();
  }

  @Override
  public EncryptionManager encryption() {
    return real.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return real.metadataFileLocation(fileName);
  }

  @Override
  public LocationProvider locationProvider() {
    return real.locationProvider();
  }

  @Override
  public long newSnapshotId() {
    return real.newSnapshotId();
  }
}
