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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.apache.storm.iceberg.spi.WalStoreListing;

/**
 * A test-only WAL store ({@code "test-memory"}) that keeps entries in the JVM, for the thousands of
 * fault schedules a build runs (a local Hadoop file system forks a chmod per file). It passes the
 * same WalStoreContractTest as the shipped stores. Property {@code space} separates stores.
 */
public class MemoryWalStoreFactory implements WalStoreFactory {
  private static final Map<String, Map<String, byte[]>> SPACES = new ConcurrentHashMap<>();
  private static final Map<String, Set<String>> DELETES_ASKED = new ConcurrentHashMap<>();

  @Override
  public String name() {
    return "test-memory";
  }

  @Override
  public WalStore create(Map<String, String> properties) {
    ProviderProperties.check("WAL store 'test-memory'", properties, Set.of(), Set.of("space", "fault-key"));
    String faultKey = properties.get("fault-key");
    String space = properties.getOrDefault("space", "default");
    return new MemoryWalStore(
        SPACES.computeIfAbsent(space, s -> new ConcurrentHashMap<>()),
        DELETES_ASKED.computeIfAbsent(space, s -> ConcurrentHashMap.newKeySet()),
        faultKey == null ? null : Faults.of(faultKey));
  }

  /** Forgets a space's entries. */
  public static void drop(String space) {
    SPACES.remove(space);
    DELETES_ASKED.remove(space);
  }

  /** Every location a task of the space asked to delete, whether or not the delete succeeded. */
  public static Set<String> deletesAsked(String space) {
    return DELETES_ASKED.getOrDefault(space, Set.of());
  }

  /** The entries a space holds, by location. */
  public static Map<String, byte[]> entries(String space) {
    return SPACES.getOrDefault(space, Map.of());
  }

  private static final class MemoryWalStore implements WalStore, WalStoreListing {
    private final Map<String, byte[]> entries;
    private final Set<String> deletesAsked;
    private final Faults faults;

    MemoryWalStore(Map<String, byte[]> entries, Set<String> deletesAsked, Faults faults) {
      this.entries = entries;
      this.deletesAsked = deletesAsked;
      this.faults = faults;
    }

    private void fail(java.util.concurrent.atomic.AtomicInteger point, String what) {
      if (faults != null && Faults.take(point)) {
        throw new java.io.UncheckedIOException(new java.io.IOException("injected: " + what));
      }
    }

    private static String prefix(WalScope scope) {
      return "memory:" + scope.table().name() + "/" + scope.namespace() + "/" + scope.topology() + "/"
          + scope.component() + "/" + scope.taskIndex() + "/";
    }

    @Override
    public String put(WalScope scope, String commitId, byte[] payload) {
      String location = prefix(scope) + commitId;
      if (faults != null) {
        fail(faults.walWriteFailuresBefore, "cannot write WAL entry " + location);
      }
      entries.put(location, payload.clone());
      if (faults != null) {
        fail(faults.walWriteFailuresAfter, "WAL entry " + location + " written but the write reported failure");
      }
      return location;
    }

    @Override
    public List<WalEntry> list(WalScope scope) {
      String prefix = prefix(scope);
      List<WalEntry> found = new ArrayList<>();
      entries.forEach((location, payload) -> {
        if (location.startsWith(prefix)) {
          found.add(new WalEntry(location.substring(prefix.length()), location, payload));
        }
      });
      return found;
    }

    @Override
    public void delete(WalScope scope, String commitId) {
      deletesAsked.add(prefix(scope) + commitId);
      if (faults != null) {
        fail(faults.walDeleteFailures, "cannot delete WAL entry " + prefix(scope) + commitId);
      }
      entries.remove(prefix(scope) + commitId);
    }

    @Override
    public List<WalEntry> listAll(org.apache.iceberg.Table table) {
      String prefix = "memory:" + table.name() + "/";
      List<WalEntry> found = new ArrayList<>();
      entries.forEach((location, payload) -> {
        if (location.startsWith(prefix)) {
          found.add(new WalEntry(location.substring(location.lastIndexOf('/') + 1), location, payload));
        }
      });
      return found;
    }
  }
}
