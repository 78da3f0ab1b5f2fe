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

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.storm.daemon.Acker;
import org.apache.storm.executor.bolt.BoltOutputCollectorImpl;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the Storm internals the held tuples depend on ({@link TupleCopies} lists them), so that a
 * Storm upgrade that changes one fails here, naming what changed and what in the sink relies on
 * it, rather than as tuples that time out and replay in a running topology. The LocalCluster
 * suites check the same through a real worker; this says where to look.
 */
class StormAckInternalsTest {
  private static final String WHY =
      "; the sink's held tuples (org.apache.storm.iceberg.kernel.ack.TupleCopies) ack and fail value-free TupleImpl"
          + " copies built on it, so adapt TupleCopies to the Storm version in the parent pom before upgrading";

  final GeneralTopologyContext context =
      new GeneralTopologyContext(
          new StormTopology(), new HashMap<>(), Map.of(1, "events", 4, "sink"),
          Map.of("events", List.of(1), "sink", List.of(4)),
          Map.of(
              "events", Map.of("default", new Fields("id"), Acker.ACKER_INIT_STREAM_ID, new Fields("id", "ack-val", "spout-task")),
              "sink", Map.of("descriptors", new Fields("files"), Acker.ACKER_ACK_STREAM_ID, new Fields("id", "ack-val"))),
          "pins-1");
  @TempDir Path spillDirectory;
  final Random random = new Random(3);

  @Test
  void tupleImplKeepsTheConstructorAndAckStateTheCopiesUse() throws Exception {
    assertThat(publicConstructorExists(
            TupleImpl.class, GeneralTopologyContext.class, List.class, String.class, int.class, String.class, MessageId.class))
        .as("TupleImpl(GeneralTopologyContext, List, String, int, String, MessageId) is gone" + WHY)
        .isTrue();
    assertReturns(TupleImpl.class.getMethod("getAckVal"), long.class, "TupleImpl.getAckVal(), read to fold it into the edge");
    assertReturns(TupleImpl.class.getMethod("updateAckVal", long.class), void.class, "TupleImpl.updateAckVal(long), an anchored emit's edge");
    assertReturns(TupleImpl.class.getMethod("getContext"), GeneralTopologyContext.class, "TupleImpl.getContext(), reused by the copies");
    assertReturns(TupleImpl.class.getMethod("getProcessSampleStartTime"), Long.class, "TupleImpl.getProcessSampleStartTime()");
    assertReturns(TupleImpl.class.getMethod("setProcessSampleStartTime", long.class), void.class, "TupleImpl.setProcessSampleStartTime(long)");

    TupleImpl tuple = new TupleImpl(context, List.of(7L), "events", 1, "default", MessageId.makeRootId(1L, 2L));
    assertThat(tuple.getAckVal()).as("a new TupleImpl's ack value is no longer zero" + WHY).isZero();
    tuple.updateAckVal(0b0110L);
    tuple.updateAckVal(0b0011L);
    assertThat(tuple.getAckVal()).as("TupleImpl.updateAckVal no longer XORs into the ack value" + WHY).isEqualTo(0b0101L);
  }

  @Test
  void messageIdsKeepTheAnchorsTheyAreMadeWithAndAreEqualByThem() {
    MessageId rebuilt = MessageId.makeId(Map.of(11L, 12L));

    assertThat(rebuilt.getAnchorsToIds()).as("MessageId.makeId no longer keeps the anchors it is given" + WHY)
        .isEqualTo(Map.of(11L, 12L));
    assertThat(rebuilt).as("MessageId.makeId(root -> edge) no longer equals makeRootId(root, edge)" + WHY)
        .isEqualTo(MessageId.makeRootId(11L, 12L));
    assertThat(rebuilt.getAnchors()).as("MessageId.getAnchors() is no longer the anchors' roots" + WHY).containsExactly(11L);
    assertThat(MessageId.makeUnanchored().getAnchorsToIds()).as("MessageId.makeUnanchored() now has anchors" + WHY).isEmpty();
  }

  @Test
  void theExecutorsCollectorAcksATupleImplByItsAnchorsAndAckValue() throws IOException {
    Set<String> calls = methodsCalledBy(BoltOutputCollectorImpl.class);

    // What a bolt's OutputCollector wraps in a worker. Its ack casts to TupleImpl and sends, for each
    // root, edge XOR ack value to the acker; its anchored emit XORs a new edge into each anchor's ack value.
    for (String call :
        List.of(
            "org/apache/storm/tuple/TupleImpl.getAckVal()J",
            "org/apache/storm/tuple/TupleImpl.updateAckVal(J)V",
            "org/apache/storm/tuple/MessageId.getAnchorsToIds()Ljava/util/Map;",
            "org/apache/storm/utils/Utils.bitXor(Ljava/lang/Long;Ljava/lang/Long;)J")) {
      assertThat(calls)
          .as("Storm's BoltOutputCollectorImpl no longer calls " + call + ": its ack or anchored emit changed" + WHY)
          .contains(call);
    }
  }

  @Test
  void stormsAckerCompletesTheTreesOfTheCopiesOnlyOnceAnEmitAnchoredToThemIsAcked() {
    RealAcker acker = new RealAcker();
    HeldTuples held = Holders.compact(spillDirectory);
    List<Long> roots = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      TupleImpl tuple = acker.spoutEmit(i);
      roots.add(tuple.getMessageId().getAnchors().iterator().next());
      if (i % 5 == 0) {
        // Anchored to by an earlier emit whose child is acked downstream: its ack value is not zero.
        acker.ack(acker.boltEmit(List.of(tuple)));
      }
      held.hold(tuple);
    }

    Tuple descriptor = acker.boltEmit(held.materialize());
    held.ackAll(acker.collector);

    assertThat(acker.completed).as("Storm's Acker completed trees still waiting for the descriptor" + WHY).isEmpty();
    acker.ack(descriptor);
    assertThat(acker.completed)
        .as("Storm's Acker did not complete the copies' trees: it no longer completes a tree when the XOR of its edges"
            + " reaches zero, or the collector's ack or anchored emit changed" + WHY)
        .containsExactlyInAnyOrderElementsOf(roots);
  }

  @Test
  void stormsAckerCompletesTheTreeOfAnUnsampledCopyAckedAlone() {
    RealAcker acker = new RealAcker();
    HeldTuples held = Holders.compact(spillDirectory);
    TupleImpl tuple = acker.spoutEmit(1);
    held.hold(tuple);

    held.ackAll(acker.collector);

    assertThat(acker.completed).as("Storm's Acker did not complete the tree of an acked copy" + WHY)
        .containsExactlyElementsOf(tuple.getMessageId().getAnchors());
  }

  /**
   * Storm's own {@link Acker} bolt, fed what the executor's collector sends it: on a spout emit the
   * root and its first edge; on a bolt's ack, for each root, the edge XOR the tuple's ack value (the
   * calls pinned above). It reports a tree complete by a direct emit to the spout task.
   */
  final class RealAcker implements IOutputCollector {
    final Acker acker = new Acker();
    final OutputCollector collector = new OutputCollector(this);
    final List<Long> completed = new ArrayList<>();
    private final RecordingAckerOutput output = new RecordingAckerOutput();

    RealAcker() {
      acker.prepare(Map.of(), null, new OutputCollector(output));
    }

    TupleImpl spoutEmit(long id) {
      long root = random.nextLong();
      long edge = random.nextLong();
      acker.execute(new TupleImpl(context, new Values(root, edge, 1), "events", 1, Acker.ACKER_INIT_STREAM_ID));
      return new TupleImpl(context, new Values(id), "events", 1, "default", MessageId.makeRootId(root, edge));
    }

    /** As {@code BoltOutputCollectorImpl.emit} anchors: a new edge into each anchor's ack value and into the child's id. */
    Tuple boltEmit(Collection<Tuple> anchors) {
      Map<Long, Long> childAnchors = new HashMap<>();
      for (Tuple anchor : anchors) {
        long edge = random.nextLong();
        ((TupleImpl) anchor).updateAckVal(edge);
        for (Long root : anchor.getMessageId().getAnchors()) {
          childAnchors.merge(root, edge, (a, b) -> a ^ b);
        }
      }
      return new TupleImpl(context, new Values("files"), "sink", 4, "descriptors", MessageId.makeId(childAnchors));
    }

    @Override
    public void ack(Tuple input) {
      long ackValue = ((TupleImpl) input).getAckVal();
      input.getMessageId().getAnchorsToIds().forEach((root, edge) ->
          acker.execute(new TupleImpl(context, new Values(root, edge ^ ackValue), "sink", 4, Acker.ACKER_ACK_STREAM_ID)));
    }

    @Override
    public void fail(Tuple input) {
      throw new AssertionError("nothing here fails");
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

    /** What the acker emits: a completed tree's root, direct to its spout task. */
    private final class RecordingAckerOutput implements IOutputCollector {
      @Override
      public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        assertThat(streamId).isEqualTo(Acker.ACKER_ACK_STREAM_ID);
        assertThat(taskId).isEqualTo(1);
        completed.add((Long) tuple.get(0));
      }

      @Override
      public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        throw new AssertionError("the acker emits direct: " + streamId + " " + tuple);
      }

      @Override
      public void ack(Tuple input) {}

      @Override
      public void fail(Tuple input) {}

      @Override
      public void resetTimeout(Tuple input) {}

      @Override
      public void flush() {}

      @Override
      public void reportError(Throwable error) {
        throw new AssertionError(error);
      }
    }
  }

  private static boolean publicConstructorExists(Class<?> type, Class<?>... parameters) {
    try {
      return Modifier.isPublic(type.getConstructor(parameters).getModifiers());
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private static void assertReturns(Method method, Class<?> type, String what) {
    assertThat(Modifier.isPublic(method.getModifiers())).as(what + " is no longer public" + WHY).isTrue();
    assertThat(method.getReturnType()).as(what + " returns another type" + WHY).isEqualTo(type);
  }

  /** The methods {@code type}'s bytecode refers to, as "owner.nameDescriptor", read from its constant pool. */
  private static Set<String> methodsCalledBy(Class<?> type) throws IOException {
    String resource = "/" + type.getName().replace('.', '/') + ".class";
    try (InputStream stream = type.getResourceAsStream(resource); DataInputStream in = new DataInputStream(stream)) {
      in.skipBytes(8); // magic, minor and major version
      int count = in.readUnsignedShort();
      Object[] pool = new Object[count];
      List<int[]> methodRefs = new ArrayList<>();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> pool[i] = in.readUTF();
          case 7, 8, 16, 19, 20 -> pool[i] = in.readUnsignedShort();
          case 10, 11 -> methodRefs.add(new int[] {in.readUnsignedShort(), in.readUnsignedShort()});
          case 12 -> pool[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
          case 3, 4, 9, 17, 18 -> in.skipBytes(4);
          case 5, 6 -> {
            in.skipBytes(8);
            i++;
          }
          case 15 -> in.skipBytes(3);
          default -> throw new IOException("unknown constant pool tag " + tag + " in " + resource);
        }
      }
      Set<String> calls = new HashSet<>();
      for (int[] ref : methodRefs) {
        String owner = (String) pool[(Integer) pool[ref[0]]];
        int[] nameAndType = (int[]) pool[ref[1]];
        calls.add(owner + "." + pool[nameAndType[0]] + pool[nameAndType[1]]);
      }
      return calls;
    }
  }
}
