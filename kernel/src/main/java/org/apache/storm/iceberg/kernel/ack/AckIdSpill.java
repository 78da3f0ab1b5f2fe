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

package org.apache.storm.iceberg.kernel.ack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.storm.iceberg.spi.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chunks of ack ids spilled so far, oldest first, in one file in the task's spill directory,
 * written once and read back once. It holds ids, never values, so a file a killed worker leaves
 * behind exposes nothing.
 */
final class AckIdSpill {
  private static final Logger LOG = LoggerFactory.getLogger(AckIdSpill.class);

  /** Opens a spill file for writing. */
  interface Opener {
    Opener FILE = file -> FileChannel.open(file, StandardOpenOption.WRITE);

    WritableByteChannel open(Path file) throws IOException;
  }

  final Path file;
  private final WritableByteChannel out;
  /**
   * Chunks wholly in the file, read back from its start. A chunk counts only once it is written;
   * a write that fails part-way leaves bytes after the last whole chunk, which stay harmless
   * because spilling then stops for good (nothing is ever written after them).
   */
  int chunks;
  boolean deleted;
  private FileChannel reading;

  private AckIdSpill(Path file, WritableByteChannel out) {
    this.file = file;
    this.out = out;
  }

  /** Creates a new spill file in {@code directory}, opened with {@code opener}. */
  static AckIdSpill create(Path directory, Opener opener) throws IOException {
    Path file = Files.createTempFile(directory, "storm-iceberg-held-", ".bin");
    try {
      return new AckIdSpill(file, opener.open(file));
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(file);
      throw e;
    }
  }

  void write(AckIdChunk chunk) throws IOException {
    chunk.writeTo(out);
    chunks++;
  }

  /** Opens the file to read its chunks back from the start. */
  FileChannel open() {
    try {
      reading = FileChannel.open(file, StandardOpenOption.READ);
      return reading;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read back the spilled ids of held tuples from " + file, e);
    }
  }

  AckIdChunk read(FileChannel in) {
    try {
      return AckIdChunk.readFrom(in);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read back the spilled ids of held tuples from " + file, e);
    }
  }

  static void closeQuietly(Channel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // A broken channel: the file goes all the same.
    }
  }

  void delete() {
    deleted = true;
    closeQuietly(out);
    if (reading != null) {
      closeQuietly(reading);
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.warn("Cannot delete {}; it holds only ids of settled tuples", file, Redaction.of(e));
    }
  }
}
