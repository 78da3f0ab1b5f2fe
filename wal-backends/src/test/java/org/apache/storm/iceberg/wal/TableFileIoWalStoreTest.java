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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default WAL store on a real table's HadoopFileIO. */
class TableFileIoWalStoreTest {
  @TempDir Path dir;
  Table table;
  final WalStore store = new TableFileIoWalStoreFactory().create(Map.of());

  @BeforeEach
  void createTable() {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    table = new HadoopTables(new Configuration()).create(schema, PartitionSpec.unpartitioned(), dir.resolve("t").toString());
  }

  WalScope scope(String namespace, int task) {
    return new WalScope(table, namespace, "topo", "iceberg", task);
  }

  @Test
  void putListDeleteUnderTheTableMetadataDirectory() {
    String location = store.put(scope("default", 0), "c1", "one".getBytes(StandardCharsets.UTF_8));
    assertThat(location).endsWith("/t/metadata/_storm_wal/default/topo/iceberg/0/c1.json");

    assertThat(store.list(scope("default", 0)))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.commitId()).isEqualTo("c1");
              assertThat(new String(e.payload(), StandardCharsets.UTF_8)).isEqualTo("one");
            });

    store.delete(scope("default", 0), "c1");
    assertThat(store.list(scope("default", 0))).isEmpty();
    store.delete(scope("default", 0), "c1"); // already gone: not an error
  }

  /**
   * An entry settled (deleted) between the listing and its read is left out, and only it: the other
   * pending entries are still listed, which table maintenance relies on to keep what they name.
   */
  @Test
  void anEntryDeletedBetweenListingAndReadingIsLeftOutAndOnlyIt() {
    store.put(scope("default", 0), "settled", "one".getBytes(StandardCharsets.UTF_8));
    store.put(scope("default", 1), "pending", "two".getBytes(StandardCharsets.UTF_8));
    org.apache.iceberg.hadoop.HadoopFileIO io = (org.apache.iceberg.hadoop.HadoopFileIO) table.io();
    org.apache.iceberg.io.FileIO settlingWhileListed = new org.apache.iceberg.hadoop.HadoopFileIO(new Configuration()) {
      @Override
      public Iterable<org.apache.iceberg.io.FileInfo> listPrefix(String prefix) {
        java.util.List<org.apache.iceberg.io.FileInfo> listed = new java.util.ArrayList<>();
        io.listPrefix(prefix).forEach(listed::add);
        listed.stream().filter(f -> f.location().endsWith("settled.json")).forEach(f -> io.deleteFile(f.location()));
        return listed;
      }
    };
    Table listing = readingThrough(settlingWhileListed);

    assertThat(((org.apache.storm.iceberg.spi.WalStoreListing) store).listAll(listing)).extracting(WalEntry::commitId)
        .containsExactly("pending");
  }

  /**
   * A listing that breaks off, as Hadoop's local listing does when a file it lists is deleted before
   * it reads the file's permissions (a settled entry, beside a maintenance pass), is listed again.
   */
  @Test
  void aListingThatBreaksOffIsListedAgain() {
    store.put(scope("default", 0), "first", "one".getBytes(StandardCharsets.UTF_8));
    store.put(scope("default", 1), "second", "two".getBytes(StandardCharsets.UTF_8));
    org.apache.iceberg.hadoop.HadoopFileIO io = (org.apache.iceberg.hadoop.HadoopFileIO) table.io();
    java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
    org.apache.iceberg.io.FileIO breaksOffOnce = new org.apache.iceberg.hadoop.HadoopFileIO(new Configuration()) {
      @Override
      public Iterable<org.apache.iceberg.io.FileInfo> listPrefix(String prefix) {
        if (listings.incrementAndGet() > 1) {
          return io.listPrefix(prefix);
        }
        java.util.Iterator<org.apache.iceberg.io.FileInfo> real = io.listPrefix(prefix).iterator();
        return () -> new java.util.Iterator<>() {
          private int given;

          @Override
          public boolean hasNext() {
            if (given == 1) {
              throw new RuntimeException("Error while running command to get file permissions : ExitCodeException"
                  + " exitCode=2: ls: cannot access '" + prefix + "…': No such file or directory");
            }
            return real.hasNext();
          }

          @Override
          public org.apache.iceberg.io.FileInfo next() {
            given++;
            return real.next();
          }
        };
      }
    };

    assertThat(((org.apache.storm.iceberg.spi.WalStoreListing) store).listAll(readingThrough(breaksOffOnce)))
        .extracting(WalEntry::commitId)
        .containsExactlyInAnyOrder("first", "second");
    assertThat(listings).hasValue(2);
  }

  /** The test's table, its files read and listed through {@code io}. */
  private Table readingThrough(org.apache.iceberg.io.FileIO io) {
    org.apache.iceberg.TableOperations real = ((org.apache.iceberg.HasTableOperations) table).operations();
    return new org.apache.iceberg.BaseTable(new org.apache.iceberg.TableOperations() {
      @Override
      public org.apache.iceberg.TableMetadata current() {
        return real.current();
      }

      @Override
      public org.apache.iceberg.TableMetadata refresh() {
        return real.refresh();
      }

      @Override
      public void commit(org.apache.iceberg.TableMetadata base, org.apache.iceberg.TableMetadata metadata) {
        real.commit(base, metadata);
      }

      @Override
      public org.apache.iceberg.io.FileIO io() {
        return io;
      }

      @Override
      public String metadataFileLocation(String fileName) {
        return real.metadataFileLocation(fileName);
      }

      @Override
      public org.apache.iceberg.io.LocationProvider locationProvider() {
        return real.locationProvider();
      }
    }, table.name());
  }

  @Test
  void commitIdsWithReservedCharactersRoundTrip() {
    store.put(scope("default", 0), "batch/7 of 9?", new byte[] {1});
    assertThat(store.list(scope("default", 0))).extracting(WalEntry::commitId).containsExactly("batch/7 of 9?");
    store.delete(scope("default", 0), "batch/7 of 9?");
    assertThat(store.list(scope("default", 0))).isEmpty();
  }

  @Test
  void scopesDoNotSeeEachOther() {
    store.put(scope("default", 0), "a", new byte[] {1});
    store.put(scope("default", 1), "b", new byte[] {2});
    store.put(scope("other", 0), "c", new byte[] {3});
    assertThat(store.list(scope("default", 0))).extracting(WalEntry::commitId).containsExactly("a");
    assertThat(store.list(scope("default", 1))).extracting(WalEntry::commitId).containsExactly("b");
    assertThat(store.list(scope("other", 0))).extracting(WalEntry::commitId).containsExactly("c");
    assertThat(store.list(scope("never-used", 0))).isEmpty();
  }
}
