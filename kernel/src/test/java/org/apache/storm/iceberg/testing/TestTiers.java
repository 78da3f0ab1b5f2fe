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

import org.junit.jupiter.api.Assumptions;

/**
 * The two test tiers. {@code mvn verify} runs the quick tier; {@code -Plong} (what CI runs) sets
 * {@code tests.long} and runs every case. A case marked long-tier-only is skipped in the quick tier:
 * another case of the same test covers its path there, and the long tier runs it in full.
 */
public final class TestTiers {
  private TestTiers() {}

  /** Whether this run is the long tier. */
  public static boolean isLongTier() {
    return Boolean.getBoolean("tests.long");
  }

  /**
   * Skips the calling case unless {@code -Dtests.controls=true}: a control is the same run as a
   * test with the guarantee switched off, showing that the test can fail. Neither tier runs the
   * controls (CI does not); run them when you change what they guard.
   */
  public static void controlOnly(String why) {
    Assumptions.assumeTrue(Boolean.getBoolean("tests.controls"), "control (-Dtests.controls=true): " + why);
  }

  /** Skips the calling case unless this run is the long tier. */
  public static void longTierOnly(String why) {
    Assumptions.assumeTrue(isLongTier(), "long tier only (-Plong): " + why);
  }
}
