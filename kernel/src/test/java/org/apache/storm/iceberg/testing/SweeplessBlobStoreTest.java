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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.blobstore.FileBlobStoreImpl;
import org.apache.storm.blobstore.LocalFsBlobStoreFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race {@link SweeplessBlobStore} closes, on Storm's own file blob store: a key whose directory
 * Nimbus has just created (and not yet written a file into) is deleted by the sweep of any store
 * opened on the same directory with cleanup on, as local mode's supervisor opens them.
 */
class SweeplessBlobStoreTest {
  private static final Map<String, Object> STORMS_FORCED_CLEANUP = Map.of(Config.BLOBSTORE_CLEANUP_ENABLE, true);
  private static final String KEY = "trident-kill-1-1-stormcode.ser";

  @TempDir Path dir;

  @Test
  void stormsSweepDeletesAKeyDirectoryBetweenItsCreationAndItsFirstFile() throws Exception {
    FileBlobStoreImpl nimbus = new FileBlobStoreImpl(dir.toFile(), Map.of());
    createKeyDirectoryOnly(nimbus, KEY);

    FileBlobStoreImpl supervisors = new FileBlobStoreImpl(dir.toFile(), STORMS_FORCED_CLEANUP);
    try {
      Deadline.await(Duration.ofSeconds(30), () -> !nimbus.exists(KEY), () -> "Storm's sweep to delete the empty key directory");
    } finally {
      supervisors.shutdown();
    }
  }

  @Test
  void withoutTheSweepTheKeyDirectoryStays() throws Exception {
    File quiet = dir.resolve("sweepless").toFile();
    FileBlobStoreImpl nimbus = new FileBlobStoreImpl(quiet, Map.of());
    createKeyDirectoryOnly(nimbus, KEY);
    FileBlobStoreImpl supervisors = new FileBlobStoreImpl(quiet, SweeplessBlobStore.withoutSweep(STORMS_FORCED_CLEANUP));

    // Storm's sweeps share one timer thread and run in the order they are due: once a sweep that
    // fell due later has run, one from the store above would have run too.
    long opened = System.currentTimeMillis();
    Deadline.await(Duration.ofSeconds(5), () -> System.currentTimeMillis() > opened, () -> "the clock to move on");
    File swept = dir.resolve("swept").toFile();
    FileBlobStoreImpl witness = new FileBlobStoreImpl(swept, Map.of());
    createKeyDirectoryOnly(witness, KEY);
    FileBlobStoreImpl sweeping = new FileBlobStoreImpl(swept, STORMS_FORCED_CLEANUP);
    try {
      Deadline.await(Duration.ofSeconds(30), () -> !witness.exists(KEY), () -> "a later sweep to run");
      assertThat(nimbus.exists(KEY)).as("the key directory under a store opened without the sweep").isTrue();
    } finally {
      sweeping.shutdown();
      supervisors.shutdown();
    }
  }

  /** Where Nimbus's {@code createBlob} is between making a key's directory and writing its first file. */
  private static void createKeyDirectoryOnly(FileBlobStoreImpl store, String key) throws Exception {
    LocalFsBlobStoreFile part = store.write(key, true);
    part.getOutputStream().close();
    part.cancel();
    assertThat(store.exists(key)).as("an empty directory for key %s", key).isTrue();
  }
}
