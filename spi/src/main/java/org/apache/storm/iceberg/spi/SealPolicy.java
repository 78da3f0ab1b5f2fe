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
