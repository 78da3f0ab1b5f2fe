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

package org.apache.storm.iceberg.spi.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.launcher.TestIdentifier;

class StallDumpTest {
  @Test
  void aStalledJvmGetsEveryThreadsStackAndTheTestsStillRunning(@TempDir Path dir) throws Exception {
    StallDump stallDump = new StallDump(Duration.ofMillis(200), dir);
    TestIdentifier stuckTest = TestIdentifier.from(new EngineDescriptor(UniqueId.forEngine("stall-test"), "a stuck test"));
    CountDownLatch never = new CountDownLatch(1);
    Thread stuck = new Thread(() -> {
      try {
        never.await();
      } catch (InterruptedException e) {
        // the test is over
      }
    }, "stuck-thread");
    stuck.start();
    stallDump.testPlanExecutionStarted(null);
    stallDump.executionStarted(stuckTest);
    try {
      stallDump.firstDump().get(30, TimeUnit.SECONDS);
      String dump = Files.readString(stallDump.file());
      assertThat(dump)
          .contains("running: a stuck test [[engine:stall-test]]")
          .contains("\"stuck-thread\"")
          .contains("java.util.concurrent.CountDownLatch.await(")
          .contains("=== end of stall dump\n");
    } finally {
      stallDump.testPlanExecutionFinished(null);
      stuck.interrupt();
    }
  }
}
