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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The value-free copies a batch acks must complete Storm's tuple trees exactly as the originals
 * would. The collector here does the acker's arithmetic as {@code BoltOutputCollectorImpl} and the
 * acker do it: each root's ledger is the XOR of its edges, and a tree is complete at zero.
 */
class HeldTuplesTest {
  final GeneralTopologyContext context =
      new GeneralTopologyContext(
          new StormTopology(), new HashMap<>(), Map.of(1, "events", 2, "events", 3, "clicks"),
          Map.of("events", List.of(1, 2), "clicks", List.of(3)),
          Map.of("events", Map.of("default", new Fields("id", "region")), "clicks", Map.of("raw", new Fields("raw"))),
          "test-1");
  @TempDir Path spillDirectory;
  final Random random = new Random(7);
  final AckerModel acker = new AckerModel();

  /** A tuple as the spout's emit makes it: a new root whose ledger starts at the edge. */
  Tuple emitted(int task, String stream, List<Object> values) {
    long root = random.nextLong();
    long edge = random.nextLong();
    acker.ledger.put(root, edge);
    String component = context.getComponentId(task);
    return new TupleImpl(context, values, component, task, stream, MessageId.makeRootId(root, edge));
  }

  /** A holder that keeps every chunk on the heap unless a test says otherwise. */
  CompactHeldTuples compact() {
    return new CompactHeldTuples(CompactHeldTuples.MEMORY_CHUNKS, spillDirectory);
  }

  /** Holds {@code count} events just emitted from task 1, ids 0 on. */
  void holdEvents(HeldTuples held, int count) {
    for (int i = 0; i < count; i++) {
      held.hold(emitted(1, "default", List.of((long) i, "eu")));
    }
  }

  @Test
  void ackingTheCopiesCompletesEveryTree() {
    CompactHeldTuples held = compact();
    List<Tuple> originals = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      Tuple tuple = i % 3 == 0 ? emitted(3, "raw", List.of("doc" + i)) : emitted(1 + i % 2, "default", List.of((long) i, "eu"));
      originals.add(tuple);
      held.hold(tuple);
    }

    assertThat(held.size()).isEqualTo(10_000);
    held.ackAll(acker);

    assertThat(acker.incompleteRoots()).isEmpty();
    List<Tuple> copies = new ArrayList<>();
    held.copies().forEachRemaining(copies::add);
    for (int i = 0; i < originals.size(); i++) {
      Tuple original = originals.get(i);
      Tuple copy = copies.get(i);
      assertThat(copy).isNotSameAs(original);
      assertThat(copy.getSourceTask()).isEqualTo(original.getSourceTask());
      assertThat(copy.getSourceComponent()).isEqualTo(original.getSourceComponent());
      assertThat(copy.getSourceStreamId()).isEqualTo(original.getSourceStreamId());
      assertThat(copy.getMessageId()).isEqualTo(original.getMessageId());
      assertThat(copy.getValues()).hasSize(original.size()).containsOnlyNulls();
    }
  }

  @Test
  void anAckValueTheTupleAlreadyCarriesIsKept() {
    Tuple tuple = emitted(1, "default", List.of(1L, "eu"));
    // Something anchored an emit to the tuple before the batch held it; the child is acked downstream.
    Tuple child = acker.emit(List.of(tuple));
    HeldTuples held = Holders.compact(spillDirectory);
    held.hold(tuple);

    held.ackAll(acker);
    assertThat(acker.incompleteRoots()).hasSize(1);
    acker.ack(child);

    assertThat(acker.incompleteRoots()).isEmpty();
  }

  @Test
  void anchoringAnEmitToTheMaterializedCopiesAndAckingThemKeepsTheTreesOpenUntilTheChildIsAcked() {
    HeldTuples held = Holders.compact(spillDirectory);
    holdEvents(held, 100);

    Tuple descriptor = acker.emit(held.materialize());
    held.ackAll(acker);

    assertThat(acker.incompleteRoots()).hasSize(100);
    acker.ack(descriptor);
    assertThat(acker.incompleteRoots()).isEmpty();
  }

  @Test
  void eachPassMakesNewCopiesSoAckingASecondPassAfterAnAnchoredEmitWouldBreakTheTree() {
    CompactHeldTuples held = compact();
    held.hold(emitted(1, "default", List.of(1L, "eu")));

    List<Tuple> firstPass = new ArrayList<>();
    held.copies().forEachRemaining(firstPass::add);
    Tuple descriptor = acker.emit(firstPass);
    held.copies().forEachRemaining(acker::ack);
    acker.ack(descriptor);

    // What materialize() is for: the second pass lost the ack value the emit gave the first.
    assertThat(acker.incompleteRoots()).hasSize(1);
  }

  @Test
  void unanchoredTuplesStayUnanchoredJoinedOnesAreHeldWholeAndEveryExecutorsContextIsAccepted() {
    Tuple unanchored = new TupleImpl(context, List.of(1L, "eu"), "events", 1, "default", MessageId.makeUnanchored());
    Map<Long, Long> twoRoots = Map.of(11L, 12L, 21L, 22L);
    Tuple joined = new TupleImpl(context, List.of(2L, "eu"), "events", 1, "default", MessageId.makeId(twoRoots));
    GeneralTopologyContext otherContext =
        new GeneralTopologyContext(
            new StormTopology(), new HashMap<>(), Map.of(1, "events"), Map.of("events", List.of(1)),
            Map.of("events", Map.of("default", new Fields("id", "region"))), "test-1");
    Tuple foreign = new TupleImpl(otherContext, List.of(3L, "eu"), "events", 1, "default", MessageId.makeRootId(5L, 6L));
    HeldTuples held = Holders.compact(spillDirectory);
    held.hold(unanchored);
    held.hold(joined);
    held.hold(foreign);

    List<Tuple> copies = held.materialize();

    assertThat(copies.get(0)).isNotSameAs(unanchored);
    assertThat(copies.get(0).getMessageId().getAnchorsToIds()).isEmpty();
    assertThat(copies.get(1)).isSameAs(joined);
    // Each executor of a worker builds its own context object; tuples from all of them are compacted.
    assertThat(copies.get(2)).isNotSameAs(foreign);
    assertThat(copies.get(2).getMessageId()).isEqualTo(foreign.getMessageId());
    assertThat(copies.get(2).getSourceComponent()).isEqualTo("events");
  }

  @Test
  void theExecutorsLatencySampleTimeIsCarriedOver() {
    TupleImpl sampled = (TupleImpl) emitted(1, "default", List.of(1L, "eu"));
    sampled.setProcessSampleStartTime(123_456L);
    Tuple notSampled = emitted(1, "default", List.of(2L, "eu"));
    HeldTuples held = Holders.compact(spillDirectory);
    held.hold(notSampled);
    held.hold(sampled);

    List<Tuple> copies = held.materialize();

    assertThat(((TupleImpl) copies.get(0)).getProcessSampleStartTime()).isNull();
    assertThat(((TupleImpl) copies.get(1)).getProcessSampleStartTime()).isEqualTo(123_456L);
  }

  @Test
  void spilledChunksAreReadBackInOrderAndTheFileIsGoneAfterThePass(@TempDir Path spillDirectory) throws Exception {
    HeldTuples held = new CompactHeldTuples(2, spillDirectory);
    List<Tuple> originals = new ArrayList<>();
    for (int i = 0; i < 5 * AckIdChunk.SIZE + 7; i++) {
      TupleImpl tuple = (TupleImpl) emitted(1 + i % 2, "default", List.of((long) i, "eu"));
      if (i % 1000 == 0) {
        tuple.setProcessSampleStartTime(i);
      }
      originals.add(tuple);
      held.hold(tuple);
    }
    try (var files = Files.list(spillDirectory)) {
      assertThat(files.toList()).as("4 of 6 chunks spilled into one file").hasSize(1);
    }

    List<Tuple> copies = held.materialize();

    for (int i = 0; i < originals.size(); i++) {
      assertThat(copies.get(i).getMessageId()).isEqualTo(originals.get(i).getMessageId());
      assertThat(copies.get(i).getSourceTask()).isEqualTo(originals.get(i).getSourceTask());
      assertThat(((TupleImpl) copies.get(i)).getProcessSampleStartTime()).isEqualTo(i % 1000 == 0 ? Long.valueOf(i) : null);
    }
    held.ackAll(acker);
    assertThat(acker.incompleteRoots()).isEmpty();
    try (var files = Files.list(spillDirectory)) {
      assertThat(files.toList()).isEmpty();
    }
    assertThat(held.toString()).startsWith(originals.size() + " held tuples, 4 chunks of them spilled to " + spillDirectory);
    assertThatThrownBy(held::materialize).hasMessage("these held tuples were spilled and are settled already");
  }

  @Test
  void aSpillWriteThatFailsPartWayLeavesTheWholeChunksReadableAndTheRestOnTheHeap(@TempDir Path spillDirectory)
      throws Exception {
    long chunkBytes = spilledBytesOfOneChunk(spillDirectory.resolve("probe"));
    HeldTuples held =
        new CompactHeldTuples(1, spillDirectory, file -> new FailingAfter(FileChannel.open(file, StandardOpenOption.WRITE), chunkBytes * 3 / 2));
    List<Tuple> originals = new ArrayList<>();
    for (int i = 0; i < 4 * AckIdChunk.SIZE + 3; i++) {
      TupleImpl tuple = (TupleImpl) emitted(1, "default", List.of((long) i, "eu"));
      if (i % 1000 == 0) {
        tuple.setProcessSampleStartTime(i);
      }
      originals.add(tuple);
      held.hold(tuple);
    }
    try (var files = Files.list(spillDirectory)) {
      Path spillFile = files.findFirst().orElseThrow();
      assertThat(Files.size(spillFile)).as("one whole chunk, then the failed write's bytes").isEqualTo(chunkBytes * 3 / 2);
    }
    assertThat(held.toString()).contains("1 chunks of them spilled");

    List<Tuple> copies = held.materialize();

    assertThat(copies).hasSameSizeAs(originals);
    for (int i = 0; i < originals.size(); i++) {
      assertThat(copies.get(i).getMessageId()).isEqualTo(originals.get(i).getMessageId());
      assertThat(((TupleImpl) copies.get(i)).getProcessSampleStartTime()).isEqualTo(i % 1000 == 0 ? Long.valueOf(i) : null);
    }
    held.ackAll(acker);
    assertThat(acker.incompleteRoots()).isEmpty();
  }

  /** The bytes one chunk of sampled tuples takes in a spill file. */
  private long spilledBytesOfOneChunk(Path file) throws Exception {
    AckIdChunk chunk = new AckIdChunk();
    for (int i = 0; i < AckIdChunk.SIZE; i += 1000) {
      chunk.addSample(i, i);
    }
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      chunk.writeTo(out);
    }
    long bytes = Files.size(file);
    Files.delete(file);
    return bytes;
  }

  /** Writes through until {@code limit} bytes are written, then fails, as a full disk does. */
  private static final class FailingAfter implements WritableByteChannel {
    private final FileChannel delegate;
    private long left;

    FailingAfter(FileChannel delegate, long limit) {
      this.delegate = delegate;
      this.left = limit;
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
      if (left == 0) {
        throw new IOException("No space left on device");
      }
      ByteBuffer part = source.slice();
      part.limit((int) Math.min(part.remaining(), left));
      int written = delegate.write(part);
      source.position(source.position() + written);
      left -= written;
      return written;
    }

    @Override
    public boolean isOpen() {
      return delegate.isOpen();
    }

    @Override
    public void close() throws IOException {
      delegate.close();
    }
  }

  @Test
  void whenTheSpillFileCannotBeWrittenTheIdsStayOnTheHeapAndEveryTreeCompletes(@TempDir Path dir) {
    HeldTuples held = new CompactHeldTuples(1, dir.resolve("missing"));
    holdEvents(held, 3 * AckIdChunk.SIZE + 1);

    held.ackAll(acker);

    assertThat(held.size()).isEqualTo(3 * AckIdChunk.SIZE + 1);
    assertThat(held).hasToString((3 * AckIdChunk.SIZE + 1) + " held tuples");
    assertThat(acker.incompleteRoots()).isEmpty();
  }

  @Test
  void releasingADroppedBatchDeletesItsSpillFile(@TempDir Path spillDirectory) throws Exception {
    HeldTuples held = new CompactHeldTuples(1, spillDirectory);
    holdEvents(held, 3 * AckIdChunk.SIZE);

    held.release();

    try (var files = Files.list(spillDirectory)) {
      assertThat(files.toList()).isEmpty();
    }
  }

  @Test
  void failingFailsEveryTupleInTheOrderHeldAndAckingAfterwardsIsRefused(@TempDir Path spillDirectory) {
    HeldTuples held = new CompactHeldTuples(1, spillDirectory);
    List<MessageId> ids = new ArrayList<>();
    for (int i = 0; i < 2 * AckIdChunk.SIZE + 5; i++) {
      Tuple tuple = emitted(1, "default", List.of((long) i, "eu"));
      ids.add(tuple.getMessageId());
      held.hold(tuple);
    }
    acker.failsExpected = true;

    held.failAll(acker);

    assertThat(acker.failed).isEqualTo(ids);
    assertThatThrownBy(() -> held.ackAll(acker)).hasMessage("these held tuples were spilled and are settled already");
  }

  @Test
  void aBatchSettlesOnceWhetherItsTuplesWereMaterializedOrNot() {
    HeldTuples acked = Holders.compact(spillDirectory);
    holdEvents(acked, 3);
    acked.ackAll(acker);
    HeldTuples materialized = Holders.compact(spillDirectory);
    holdEvents(materialized, 3);
    List<Tuple> copies = materialized.materialize();

    assertThat(materialized.materialize()).isSameAs(copies);
    materialized.ackAll(acker);

    assertThat(acker.incompleteRoots()).isEmpty();
    for (HeldTuples settled : List.of(acked, materialized)) {
      assertThatThrownBy(() -> settled.ackAll(acker)).hasMessage("these held tuples are settled already");
      assertThatThrownBy(() -> settled.failAll(acker)).hasMessage("these held tuples are settled already");
      assertThatThrownBy(settled::materialize).hasMessage("these held tuples are settled already");
    }
  }

  @Test
  void wholeTuplesAreSettledAsThemselves() {
    Tuple first = emitted(1, "default", List.of(1L, "eu"));
    Tuple second = emitted(3, "raw", List.of("doc"));
    HeldTuples held = Holders.whole(List.of(first));
    held.hold(second);

    assertThat(held.materialize()).containsExactly(first, second);
    held.ackAll(acker);

    assertThat(held.size()).isEqualTo(2);
    assertThat(acker.incompleteRoots()).isEmpty();
    assertThatThrownBy(() -> held.failAll(acker)).hasMessage("these held tuples are settled already");
  }

  /**
   * The XOR bookkeeping of Storm's bolt collector and acker: an anchored emit adds a new edge to the
   * anchor's ack value and to the child's message id; only acks reach the ledger.
   */
  final class AckerModel implements IOutputCollector {
    final Map<Long, Long> ledger = new HashMap<>();
    final List<MessageId> failed = new ArrayList<>();
    boolean failsExpected;

    Set<Long> incompleteRoots() {
      Set<Long> open = new HashSet<>();
      ledger.forEach((root, value) -> {
        if (value != 0) {
          open.add(root);
        }
      });
      return open;
    }

    /** An emit anchored to {@code anchors}; returns the child as the next bolt receives it. */
    Tuple emit(Collection<Tuple> anchors) {
      Map<Long, Long> childAnchors = new HashMap<>();
      for (Tuple anchor : anchors) {
        long edge = random.nextLong();
        ((TupleImpl) anchor).updateAckVal(edge);
        for (Long root : anchor.getMessageId().getAnchors()) {
          childAnchors.merge(root, edge, (a, b) -> a ^ b);
        }
      }
      return new TupleImpl(context, List.of("child"), "clicks", 3, "raw", MessageId.makeId(childAnchors));
    }

    @Override
    public void ack(Tuple input) {
      long ackValue = ((TupleImpl) input).getAckVal();
      input.getMessageId().getAnchorsToIds().forEach((root, edge) -> ledger.merge(root, edge ^ ackValue, (a, b) -> a ^ b));
    }

    @Override
    public void fail(Tuple input) {
      if (!failsExpected) {
        throw new AssertionError("nothing here fails");
      }
      failed.add(input.getMessageId());
    }

    @Override
    public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void resetTimeout(Tuple input) {}

    @Override
    public void flush() {}

    @Override
    public void reportError(Throwable error) {}
  }
}
