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

package org.apache.storm.iceberg.bench;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A real {@link JdbcCatalog} whose table operations count metadata commits: every attempt, and
 * every attempt refused with {@link CommitFailedException} because another writer committed first
 * (a conflict, after which Iceberg refreshes and retries by itself). Counts are static: the bolts
 * load their own catalog instances inside the harness's JVM ({@code catalog-impl}).
 */
public class CountingJdbcCatalog extends JdbcCatalog {
  static final AtomicLong ATTEMPTS = new AtomicLong();
  static final AtomicLong CONFLICTS = new AtomicLong();

  static void reset() {
    ATTEMPTS.set(0);
    CONFLICTS.set(0);
  }

  @Override
  protected TableOperations newTableOps(TableIdentifier identifier) {
    return new Counting(super.newTableOps(identifier));
  }

  private static final class Counting implements TableOperations {
    private final TableOperations delegate;

    Counting(TableOperations delegate) {
      this.delegate = delegate;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      ATTEMPTS.incrementAndGet();
      try {
        delegate.commit(base, metadata);
      } catch (CommitFailedException e) {
        CONFLICTS.incrementAndGet();
        throw e;
      }
    }

    @Override
    public TableMetadata current() {
      return delegate.current();
    }

    @Override
    public TableMetadata refresh() {
      return delegate.refresh();
    }

    @Override
    public FileIO io() {
      return delegate.io();
    }

    @Override
    public EncryptionManager encryption() {
      return delegate.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return delegate.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return delegate.locationProvider();
    }

    @Override
    public TableOperations temp(TableMetadata uncommittedMetadata) {
      return delegate.temp(uncommittedMetadata);
    }

    @Override
    public long newSnapshotId() {
      return delegate.newSnapshotId();
    }
  }
}
