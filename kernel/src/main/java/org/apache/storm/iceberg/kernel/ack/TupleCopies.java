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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.TupleImpl;

/**
 * Takes a tuple's ack ids apart into an {@link AckIdChunk}'s columns, and builds a value-free
 * {@link TupleImpl} back from them that Storm's {@code OutputCollector.ack}/{@code fail} treat
 * exactly as the original. The only code of the sink that reads Storm's tuple internals; {@code
 * StormAckInternalsTest} pins what it assumes of them:
 *
 * <ul>
 *   <li>the executor's collector acks a {@link TupleImpl} (it casts to it) by sending, for each
 *       root of {@link MessageId#getAnchorsToIds}, the edge XOR the tuple's {@link
 *       TupleImpl#getAckVal ack value}, and an emit anchored to a tuple XORs a new edge into that
 *       ack value; so a copy whose ack value is zero carries the original's folded into its edge;
 *   <li>{@link MessageId#makeId} keeps the anchors it is given as they are;
 *   <li>a {@link TupleImpl} is built from context, values, component, task, stream and message id,
 *       and carries the executor's latency sample time, which the collector reads back on ack.
 * </ul>
 *
 * <p>Columns of a slot: {@code kinds} ({@link #UNANCHORED}, {@link #ONE_ANCHOR} or {@link #WHOLE},
 * a tuple this class cannot take apart), {@code sources} (an index into the component and stream
 * pairs seen), {@code tasks} (source task), {@code roots} and {@code edges} (the one anchor, the
 * original's ack value folded into the edge), and the sample time when there is one.
 */
final class TupleCopies {
  static final byte UNANCHORED = 0;
  static final byte ONE_ANCHOR = 1;
  static final byte WHOLE = 2;

  private final List<Source> sources = new ArrayList<>();

  /**
   * Writes {@code tuple}'s ack ids into {@code slot} of {@code chunk}.
   *
   * @return false, with nothing written, when the tuple does not fit the compact form: not a
   *     {@link TupleImpl}, anchored to several roots (as a join's output may be), or from one
   *     component and stream too many
   */
  boolean capture(AckIdChunk chunk, int slot, Tuple tuple) {
    if (!(tuple instanceof TupleImpl impl) || impl.getContext() == null) {
      return false;
    }
    int source = sourceIndex(impl);
    Map<Long, Long> anchors = tuple.getMessageId().getAnchorsToIds();
    if (source < 0 || anchors.size() > 1) {
      return false;
    }
    if (anchors.isEmpty()) {
      chunk.kinds[slot] = UNANCHORED;
    } else {
      Map.Entry<Long, Long> anchor = anchors.entrySet().iterator().next();
      chunk.kinds[slot] = ONE_ANCHOR;
      chunk.roots[slot] = anchor.getKey();
      // Storm acks with edge XOR ack value; the copy's ack value is zero, so fold it in here.
      chunk.edges[slot] = anchor.getValue() ^ impl.getAckVal();
    }
    chunk.tasks[slot] = tuple.getSourceTask();
    chunk.sources[slot] = (byte) source;
    Long sampleStart = impl.getProcessSampleStartTime();
    if (sampleStart != null) {
      chunk.addSample(slot, sampleStart);
    }
    return true;
  }

  /** A new value-free tuple from the ids {@link #capture} wrote into {@code slot}, which is not {@link #WHOLE}. */
  Tuple copy(AckIdChunk chunk, int slot) {
    Source source = sources.get(chunk.sources[slot]);
    // Map.of: Storm only reads the anchors, and makeRootId would build a HashMap per tuple.
    MessageId id =
        chunk.kinds[slot] == ONE_ANCHOR ? MessageId.makeId(Map.of(chunk.roots[slot], chunk.edges[slot])) : MessageId.makeUnanchored();
    TupleImpl copy =
        new TupleImpl(source.context(), source.nullValues(), source.component(), chunk.tasks[slot], source.stream(), id);
    long sampleStart = chunk.sampleStart(slot);
    if (sampleStart >= 0) {
      copy.setProcessSampleStartTime(sampleStart);
    }
    return copy;
  }

  /** The index in {@link #sources} of the tuple's component and stream, or -1 when a byte cannot hold it. */
  private int sourceIndex(TupleImpl tuple) {
    String component = tuple.getSourceComponent();
    String stream = tuple.getSourceStreamId();
    for (int i = 0; i < sources.size(); i++) {
      if (sources.get(i).is(component, stream)) {
        return i;
      }
    }
    if (sources.size() > Byte.MAX_VALUE) {
      return -1;
    }
    sources.add(new Source(component, stream, tuple.getContext(), Collections.nCopies(tuple.size(), null)));
    return sources.size() - 1;
  }

  /**
   * A component and stream the held tuples came from.
   *
   * @param context the topology context of the first tuple seen from it; every executor has its own
   *     context object, and they agree on everything a copy is asked
   * @param nullValues as many nulls as the stream has fields (TupleImpl may check the count)
   */
  private record Source(String component, String stream, GeneralTopologyContext context, List<Object> nullValues) {
    boolean is(String otherComponent, String otherStream) {
      // The worker hands every tuple of a stream the same strings, so identity almost always decides.
      return (component == otherComponent || component.equals(otherComponent))
          && (stream == otherStream || stream.equals(otherStream));
    }
  }
}
