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

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A real catalog (built from the {@code delegate.*} properties, loaded by {@code catalog-impl} as a
 * user's catalog is) whose tables' commits can be held at a stage of a maintenance pass: the
 * compaction's commit (its new data files written, the commit not yet sent), the expiry's commit
 * (the snapshots to expire planned, nothing committed or deleted), or right after the expiry's
 * commit landed (before any of its file deletes). A commit held before it is sent never reaches the
 * catalog: its thread waits until the worker is killed (the bolt's cleanup interrupts the pass
 * thread) or the test says the worker is gone, then ends by a {@link Killed} error that no catch of
 * the pass's takes, so nothing is aborted or cleaned up, as when the process dies there.
 */
public class PassStageCatalog implements Catalog, Closeable {
  public static final String DELEGATE_PREFIX = "delegate.";
  public static final String HOLD_KEY = "hold-key";
  private static final Map<String, Hold> HOLDS = new ConcurrentHashMap<>();

  /** Where a pass is held. */
  enum Stage {
    /** The commit of a compaction group: its new data files are written. */
    COMPACTION_COMMIT,
    /** The commit of an expiry that follows a compaction: what it expires is planned, nothing is deleted. */
    EXPIRY_COMMIT,
    /** Right after that expiry's commit landed: the snapshots are gone from the table, none of their files deleted yet. */
    EXPIRY_DELETES
  }

  /** What the process dying inside a commit looks like to the pass: it ends there, no catch runs its cleanup. */
  static final class Killed extends Error {
    Killed(Stage stage) {
      super("injected: the worker was killed at " + stage);
    }
  }

  /** The one commit to hold at {@code stage}, and what the commits through the catalog did. */
  static final class Hold {
    final String key = UUID.randomUUID().toString();
    final Stage stage;
    private final AtomicBoolean armed = new AtomicBoolean(true);
    /** Counted down when a pass reaches the stage. */
    final CountDownLatch reached = new CountDownLatch(1);
    /** Counted down by the test once the worker is gone. */
    final CountDownLatch workerGone = new CountDownLatch(1);
    /** Counted down when the held commit's thread has ended its pass. */
    final CountDownLatch ended = new CountDownLatch(1);
    volatile boolean interrupted;
    /** The snapshot the held compaction would have made current, and the data files it would have added. */
    volatile long heldSnapshotId = -1;
    final Set<String> heldDataFiles = ConcurrentHashMap.newKeySet();
    /** The snapshots the held expiry would have removed (or, held at its deletes, removed), and their manifest lists. */
    final Set<Long> heldExpiredIds = ConcurrentHashMap.newKeySet();
    final Set<String> heldManifestLists = ConcurrentHashMap.newKeySet();
    /** Commits that landed through the catalog after the hold was taken. */
    final AtomicInteger compactionsAfter = new AtomicInteger();
    final AtomicInteger expiriesAfter = new AtomicInteger();

    Hold(Stage stage) {
      this.stage = stage;
    }

    /** Catalog properties of a real catalog, {@code delegate}, wrapped so that its commits meet this hold. */
    Map<String, String> catalogProperties(Map<String, String> delegate) {
      HOLDS.put(key, this);
      Map<String, String> properties = new HashMap<>();
      properties.put("catalog-impl", PassStageCatalog.class.getName());
      properties.put(HOLD_KEY, key);
      delegate.forEach((k, v) -> properties.put(DELEGATE_PREFIX + k, v));
      return properties;
    }

    /** Forgets this hold; a pass still reaching the stage then commits as usual. */
    void release() {
      armed.set(false);
      HOLDS.remove(key);
    }

    boolean taken() {
      return reached.getCount() == 0;
    }

    private void before(TableOperationsHolder ops, TableMetadata base, TableMetadata metadata) {
      if (stage != Stage.EXPIRY_DELETES) {
        holdIfReached(ops, base, metadata);
      }
    }

    /** Holds the commit of {@code base} to {@code metadata} if it is the stage's and the hold is still armed; then the pass dies. */
    private void holdIfReached(TableOperationsHolder ops, TableMetadata base, TableMetadata metadata) {
      if (!matches(base, metadata) || !armed.compareAndSet(true, false)) {
        return;
      }
      if (stage == Stage.COMPACTION_COMMIT) {
        Snapshot held = metadata.currentSnapshot();
        heldSnapshotId = held.snapshotId();
        for (DataFile file : held.addedDataFiles(ops.io())) {
          heldDataFiles.add(file.location());
        }
      } else {
        for (long id : expired(base, metadata)) {
          heldExpiredIds.add(id);
          heldManifestLists.add(base.snapshot(id).manifestListLocation());
        }
      }
      reached.countDown();
      try {
        while (!workerGone.await(50, TimeUnit.MILLISECONDS)) {
          // waits for the kill
        }
      } catch (InterruptedException e) {
        interrupted = true;
      } finally {
        ended.countDown();
      }
      throw new Killed(stage);
    }

    private void after(TableOperationsHolder ops, TableMetadata base, TableMetadata metadata) {
      if (stage == Stage.EXPIRY_DELETES) {
        holdIfReached(ops, base, metadata);
      }
      if (taken()) {
        if (isCompaction(base, metadata)) {
          compactionsAfter.incrementAndGet();
        }
        if (!expired(base, metadata).isEmpty()) {
          expiriesAfter.incrementAndGet();
        }
      }
    }

    private boolean matches(TableMetadata base, TableMetadata metadata) {
      return switch (stage) {
        case COMPACTION_COMMIT -> isCompaction(base, metadata);
        case EXPIRY_COMMIT, EXPIRY_DELETES -> !expired(base, metadata).isEmpty() && base.snapshots().stream().anyMatch(PassStageCatalog::isCompaction);
      };
    }
  }

  static boolean isCompaction(Snapshot snapshot) {
    return snapshot.summary() != null && "compaction".equals(snapshot.summary().get(DataCompaction.SUMMARY_KEY));
  }

  private static boolean isCompaction(TableMetadata base, TableMetadata metadata) {
    Snapshot current = metadata.currentSnapshot();
    return current != null && (base == null || base.currentSnapshot() == null || base.currentSnapshot().snapshotId() != current.snapshotId())
        && isCompaction(current);
  }

  private static Set<Long> expired(TableMetadata base, TableMetadata metadata) {
    Set<Long> ids = new HashSet<>();
    if (base != null) {
      base.snapshots().forEach(snapshot -> ids.add(snapshot.snapshotId()));
      metadata.snapshots().forEach(snapshot -> ids.remove(snapshot.snapshotId()));
    }
    return ids;
  }

  private interface TableOperationsHolder {
    org.apache.iceberg.io.FileIO io();
  }

  private Catalog delegate;
  private Hold hold;
  private String name;

  @Override
  public void initialize(String catalogName, Map<String, String> properties) {
    this.name = catalogName;
    Map<String, String> delegateProperties = new HashMap<>();
    properties.forEach((k, v) -> {
      if (k.startsWith(DELEGATE_PREFIX)) {
        delegateProperties.put(k.substring(DELEGATE_PREFIX.length()), v);
      }
    });
    this.delegate = CatalogUtil.buildIcebergCatalog(catalogName, delegateProperties, new org.apache.hadoop.conf.Configuration());
    this.hold = HOLDS.get(properties.get(HOLD_KEY));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Table loadTable(TableIdentifier identifier) {
    Table table = delegate.loadTable(identifier);
    Hold current = hold;
    if (current == null) {
      return table;
    }
    ForwardingOperations operations = new ForwardingOperations(table) {
      @Override
      public void commit(TableMetadata base, TableMetadata metadata) {
        current.before(this::io, base, metadata);
        super.commit(base, metadata);
        current.after(this::io, base, metadata);
      }
    };
    return operations.table(table);
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

  @Override
  public void close() throws IOException {
    if (delegate instanceof Closeable closeable) {
      closeable.close();
    }
  }
}
