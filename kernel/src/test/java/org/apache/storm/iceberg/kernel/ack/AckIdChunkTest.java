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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A chunk of ack ids survives its spill file byte for byte, and a cut file is refused. */
class AckIdChunkTest {
  final Random random = new Random(11);

  @Test
  void aChunkWithoutSamplesReadsBackColumnForColumn() throws Exception {
    AckIdChunk chunk = randomChunk();

    AckIdChunk read = AckIdChunk.readFrom(Channels.newChannel(new ByteArrayInputStream(bytesOf(chunk))));

    assertSameColumns(read, chunk);
    assertThat(read.sampleStart(0)).isEqualTo(-1);
  }

  @Test
  void aChunkWithEverySlotSampledReadsBackItsSampleTimes() throws Exception {
    AckIdChunk chunk = randomChunk();
    for (int slot = 0; slot < AckIdChunk.SIZE; slot++) {
      chunk.addSample(slot, 1_000_000L + slot);
    }

    AckIdChunk read = AckIdChunk.readFrom(Channels.newChannel(new ByteArrayInputStream(bytesOf(chunk))));

    assertSameColumns(read, chunk);
    for (int slot = 0; slot < AckIdChunk.SIZE; slot++) {
      assertThat(read.sampleStart(slot)).isEqualTo(1_000_000L + slot);
    }
  }

  @Test
  void aFileCutInsideAChunkIsRefused() throws Exception {
    byte[] bytes = bytesOf(randomChunk());
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);

    assertThatThrownBy(() -> AckIdChunk.readFrom(Channels.newChannel(new ByteArrayInputStream(cut))))
        .isInstanceOf(EOFException.class)
        .hasMessageStartingWith("a spilled chunk ends after ");
  }

  private AckIdChunk randomChunk() {
    AckIdChunk chunk = new AckIdChunk();
    random.nextBytes(chunk.kinds);
    random.nextBytes(chunk.sources);
    for (int slot = 0; slot < AckIdChunk.SIZE; slot++) {
      chunk.tasks[slot] = random.nextInt();
      chunk.roots[slot] = random.nextLong();
      chunk.edges[slot] = random.nextLong();
    }
    return chunk;
  }

  private static byte[] bytesOf(AckIdChunk chunk) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    chunk.writeTo(Channels.newChannel(out));
    return out.toByteArray();
  }

  private static void assertSameColumns(AckIdChunk read, AckIdChunk written) {
    assertThat(read.kinds).isEqualTo(written.kinds);
    assertThat(read.sources).isEqualTo(written.sources);
    assertThat(read.tasks).isEqualTo(written.tasks);
    assertThat(read.roots).isEqualTo(written.roots);
    assertThat(read.edges).isEqualTo(written.edges);
  }
}
