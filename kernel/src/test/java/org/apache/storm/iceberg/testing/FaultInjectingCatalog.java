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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * A real catalog (built from the {@code delegate.*} properties) whose tables' {@link
 * TableOperations} inject the faults registered under the {@code fault-key} property. Loaded by
 * {@code catalog-impl}, exactly as a user's catalog would be.
 */
public class FaultInjectingCatalog implements Catalog, SupportsNamespaces, java.io.Closeable {
  public static final String DELEGATE_PREFIX = "delegate.";
  public static final String FAULT_KEY = "fault-key";
  /** Names one in-memory catalog that every instance with this key shares (its tables live in the JVM). */
  public static final String SHARED_IN_MEMORY = "shared-in-memory";
  private static final Map<String, Catalog> SHARED = new java.util.concurrent.ConcurrentHashMap<>();

  private static Catalog newInMemoryCatalog(String key) {
    org.apache.iceberg.inmemory.InMemoryCatalog catalog = new org.apache.iceberg.inmemory.InMemoryCatalog();
    catalog.initialize("test", Map.of("warehouse", "memory://" + key));
    return catalog;
  }

  /** Catalog properties for a fresh in-memory catalog, shared under {@code key}, wrapped with {@code faults}. */
  public static Map<String, String> sharedInMemory(String key, Faults faults) {
    Map<String, String> properties = new HashMap<>();
    properties.put("catalog-impl", FaultInjectingCatalog.class.getName());
    properties.put(FAULT_KEY, faults.key);
    properties.put(SHARED_IN_MEMORY, key);
    return properties;
  }

  /**
   * The shared in-memory catalog itself, without the faults: for checks that must neither meet an
   * injected fault nor count as a catalog call that a late commit waits for.
   */
  public static Catalog sharedWithoutFaults(String key) {
    Catalog catalog = SHARED.get(key);
    if (catalog == null) {
      throw new IllegalStateException("no shared in-memory catalog under " + key);
    }
    return catalog;
  }

  /** Forgets a shared in-memory catalog. */
  public static void dropShared(String key) {
    SHARED.remove(key);
  }

  private Catalog delegate;
  private Faults faults;
  private String name;

  /** Catalog properties that wrap the real catalog {@code delegateProperties} with {@code faults}. */
  public static Map<String, String> properties(Map<String, String> delegateProperties, Faults faults) {
    Map<String, String> properties = new HashMap<>();
    properties.put("catalog-impl", FaultInjectingCatalog.class.getName());
    properties.put(FAULT_KEY, faults.key);
    delegateProperties.forEach((k, v) -> properties.put(DELEGATE_PREFIX + k, v));
    return properties;
  }

  @Override
  public void initialize(String catalogName, Map<String, String> properties) {
    this.name = catalogName;
    Map<String, String> delegateProperties = new HashMap<>();
    properties.forEach(
        (k, v) -> {
          if (k.startsWith(DELEGATE_PREFIX)) {
            delegateProperties.put(k.substring(DELEGATE_PREFIX.length()), v);
          }
        });
    String shared = properties.get(SHARED_IN_MEMORY);
    this.delegate =
        shared != null
            ? SHARED.computeIfAbsent(shared, key -> newInMemoryCatalog(key))
            : CatalogUtil.buildIcebergCatalog(catalogName, delegateProperties, new org.apache.hadoop.conf.Configuration());
    this.faults = Faults.lookup(properties.get(FAULT_KEY));
    faults.catalogsOpened.incrementAndGet();
    faults.catalogProperties = Map.copyOf(properties);
  }

  @Override
  public String name() {
    return name;
  }

  /** Closes the real catalog (a JDBC catalog's connection pool, say), unless it is a shared in-memory one. */
  @Override
  public void close() throws IOException {
    faults.catalogsClosed.incrementAndGet();
    RuntimeException failure = faults.closeFailure;
    if (failure != null) {
      throw failure;
    }
    if (!SHARED.containsValue(delegate) && delegate instanceof java.io.Closeable) {
      ((java.io.Closeable) delegate).close();
    }
  }

  @Override
  public Table loadTable(TableIdentifier identifier) {
    if (faults.unreachable()) {
      throw unreachable();
    }
    if (faults.loadFailure != null) {
      throw faults.loadFailure;
    }
    Table table = delegate.loadTable(identifier);
    return new BaseTable(new FaultyOperations(((HasTableOperations) table).operations(), identifier), table.name());
  }

  @Override
  public Table createTable(
      TableIdentifier identifier, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    delegate.createTable(identifier, schema, spec, properties);
    return loadTable(identifier);
  }

  @Override
  public List<TableIdentifier> listTables(Namespace namespace) {
    return delegate.listTables(namespace);
  }

  @Override
  public boolean dropTable(TableIdentifier identifier, boolean purge) {
    return delegate.dropTable(identifier, purge);
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    delegate.renameTable(from, to);
  }

  private SupportsNamespaces namespaces() {
    return (SupportsNamespaces) delegate;
  }

  @Override
  public void createNamespace(Namespace namespace, Map<String, String> metadata) {
    namespaces().createNamespace(namespace, metadata);
  }

  @Override
  public List<Namespace> listNamespaces(Namespace namespace) {
    return namespaces().listNamespaces(namespace);
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(Namespace namespace) {
    return namespaces().loadNamespaceMetadata(namespace);
  }

  @Override
  public boolean dropNamespace(Namespace namespace) {
    return namespaces().dropNamespace(namespace);
  }

  @Override
  public boolean setProperties(Namespace namespace, Map<String, String> properties) {
    return namespaces().setProperties(namespace, properties);
  }

  @Override
  public boolean removeProperties(Namespace namespace, Set<String> properties) {
    return namespaces().removeProperties(namespace, properties);
  }

  private static UncheckedIOException unreachable() {
    return new UncheckedIOException(new ConnectException("injected: catalog unreachable"));
  }

  private final class FaultyOperations implements TableOperations {
    private final TableOperations ops;
    private final TableIdentifier identifier;
    // A late commit and the task's own calls never interleave, as at a server handling one table's
    // requests in turn (Hadoop's and SQLite's commits are not built for two threads of one client).
    private final ReentrantLock lock = new ReentrantLock();

    FaultyOperations(TableOperations ops, TableIdentifier identifier) {
      this.ops = ops;
      this.identifier = identifier;
    }

    @Override
    public TableMetadata current() {
      lock.lock();
      try {
        return ops.current();
      } finally {
        lock.unlock();
      }
    }

    @Override
    public TableMetadata refresh() {
      faults.late.onCatalogCall();
      if (faults.unreachable()) {
        throw unreachable();
      }
      lock.lock();
      try {
        Object[] late = faults.pendingLate;
        if (late != null && --faults.refreshesUntilLanding == 0) {
          faults.pendingLate = null;
          ops.commit((TableMetadata) late[0], (TableMetadata) late[1]);
          faults.realCommits.incrementAndGet();
        }
        return ops.refresh();
      } finally {
        lock.unlock();
      }
    }

    /** A late first attempt reaches the catalog after a newer commit: CAS should refuse it. */
    private void applyStaleAttempt() {
      Object[] stale = faults.pendingStale;
      if (stale == null) {
        return;
      }
      faults.pendingStale = null;
      try {
        ops.commit((TableMetadata) stale[0], (TableMetadata) stale[1]);
        faults.staleApplied.incrementAndGet();
      } catch (CommitFailedException e) {
        faults.staleRejected.incrementAndGet();
      }
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      faults.duringCommit.run();
      faults.duringTableCommit.accept(identifier.toString());
      faults.late.onCatalogCall();
      if (faults.unreachable()) {
        throw unreachable();
      }
      boolean landed;
      lock.lock();
      try {
        landed = commitNow(base, metadata);
      } finally {
        lock.unlock();
      }
      if (landed) {
        faults.afterCommitLanded.accept(metadata);
      }
    }

    /** Commits as the armed fault says; true when the commit landed and its answer is a success. */
    private boolean commitNow(TableMetadata base, TableMetadata metadata) {
      String only = faults.onlyTable;
      switch (only != null && !only.equals(identifier.toString()) ? Faults.CommitFault.NONE : faults.nextCommitFault()) {
        case FAIL_BEFORE:
          throw new CommitFailedException("injected: commit rejected before it was applied");
        case UNREACHABLE:
          throw unreachable();
        case UNKNOWN_AFTER:
          ops.commit(base, metadata);
          faults.realCommits.incrementAndGet();
          faults.afterAppliedCommit.run();
          throw new CommitStateUnknownException(new IOException("injected: answer lost after the commit landed"));
        case UNKNOWN_NOT_APPLIED:
          throw new CommitStateUnknownException(new IOException("injected: answer lost, commit not applied"));
        case UNKNOWN_LANDS_LATE:
          faults.pendingLate = new Object[] {base, metadata};
          faults.refreshesUntilLanding = 2;
          throw new CommitStateUnknownException(new IOException("injected: answer lost, commit applied later"));
        case UNKNOWN_STALE_AFTER_RETRY:
          faults.pendingStale = new Object[] {base, metadata};
          throw new CommitStateUnknownException(new IOException("injected: answer lost, request delayed"));
        case ERROR_APPLIED_LATE:
          throw faults.late.schedule(lock, ops, base, metadata);
        default:
          ops.commit(base, metadata);
          faults.realCommits.incrementAndGet();
          applyStaleAttempt();
          return true;
      }
    }

    @Override
    public FileIO io() {
      return faults.hidePrefixListing ? new NonListingFileIO(ops.io()) : new FaultyFileIO(ops.io(), faults);
    }

    @Override
    public EncryptionManager encryption() {
      return ops.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return ops.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return ops.locationProvider();
    }

    @Override
    public long newSnapshotId() {
      return ops.newSnapshotId();
    }

    @Override
    public boolean requireStrictCleanup() {
      return ops.requireStrictCleanup();
    }
  }
}
