package org.apache.storm.iceberg.spi;

import java.io.Serializable;

/**
 * Decides when the open batch is sealed and committed. Several policies combine as "first threshold
 * crossed": the batch seals as soon as any one says so. Policies are asked after every record and on
 * every tick tuple, so {@link #shouldSeal} must be cheap and must not block. A task that receives
 * tick tuples reads the clock in {@link BatchStats} on every tick, when the batch opens and every 16
 * records, so a time-based policy sees time pass up to 16 records or one tick late; a task without
 * ticks reads it after every record, unless no policy {@link #readsTime reads time}. An empty batch
 * is never sealed, whatever a policy says.
 *
 * <p>A policy that seals on time must never keep a batch open as long as {@code
 * topology.message.timeout.secs}, or its tuples time out and replay before they commit. The sink
 * checks this for its built-in {@code age} and {@code wall-clock} policies; it cannot for a plug-in,
 * which tells no interval, so that is the plug-in author's to keep. A bolt with a policy that reads
 * time and no {@code withTickIntervalSecs} asks for a tick every second.
 */
public interface SealPolicy extends Serializable {
  boolean shouldSeal(BatchStats stats);

  /**
   * Whether {@link #shouldSeal} reads {@link BatchStats#ageMillis} or {@link BatchStats#nowMillis}.
   * A policy that does not may say so (the built-in records, bytes and open-files policies do): a
   * task without tick tuples whose policies all read no time then reads its clock only every 16
   * records. The default, {@code true}, is always safe.
   */
  default boolean readsTime() {
    return true;
  }
}
