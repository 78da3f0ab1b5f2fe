package org.apache.storm.iceberg.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits on a condition until a deadline, polling; never a guessed sleep. */
public final class Deadline {
  private Deadline() {}

  public static void await(Duration timeout, BooleanSupplier condition, Supplier<String> whatWeWaitFor)
      throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("Timed out after " + timeout + " waiting for " + whatWeWaitFor.get());
      }
      Thread.sleep(50);
    }
  }
}
