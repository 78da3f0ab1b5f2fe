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

package org.apache.storm.iceberg.kernel;

import java.util.Map;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.contract.SealPolicyContractTest;
import org.junit.jupiter.api.Nested;

/** The seal policies the kernel ships keep the SPI's seal policy contract. */
class BuiltInSealPolicyContractTest {
  /** A batch of {@code records} records and {@code bytes} bytes, {@code age} ms old at epoch ms {@code now}. */
  static BatchStats stats(long records, long bytes, long age, int files, int partitions, long now) {
    return new BatchStats(records, bytes, age, files, partitions, now);
  }

  @Nested
  class Records extends SealPolicyContractTest {
    @Override
    protected String providerName() {
      return "records";
    }

    @Override
    protected Map<String, String> properties() {
      return Map.of("limit", "10");
    }

    @Override
    protected BatchStats belowThreshold() {
      return stats(9, 1 << 20, 60_000, 3, 3, 1_000_000);
    }

    @Override
    protected BatchStats atThreshold() {
      return stats(10, 1 << 20, 60_000, 3, 3, 1_000_000);
    }
  }

  @Nested
  class Bytes extends SealPolicyContractTest {
    @Override
    protected String providerName() {
      return "bytes";
    }

    @Override
    protected Map<String, String> properties() {
      return Map.of("limit", "1000");
    }

    @Override
    protected BatchStats belowThreshold() {
      return stats(500, 999, 60_000, 3, 3, 1_000_000);
    }

    @Override
    protected BatchStats atThreshold() {
      return stats(500, 1000, 60_000, 3, 3, 1_000_000);
    }
  }

  @Nested
  class Age extends SealPolicyContractTest {
    @Override
    protected String providerName() {
      return "age";
    }

    @Override
    protected Map<String, String> properties() {
      return Map.of("limit", "5000");
    }

    @Override
    protected BatchStats belowThreshold() {
      return stats(500, 1 << 20, 4_999, 3, 3, 1_000_000);
    }

    @Override
    protected BatchStats atThreshold() {
      return stats(500, 1 << 20, 5_000, 3, 3, 1_000_000);
    }
  }

  @Nested
  class OpenFiles extends SealPolicyContractTest {
    @Override
    protected String providerName() {
      return "open-files";
    }

    @Override
    protected Map<String, String> properties() {
      return Map.of("max-partitions", "4", "max-open-files", "8");
    }

    @Override
    protected BatchStats belowThreshold() {
      return stats(500, 1 << 20, 60_000, 8, 4, 1_000_000);
    }

    @Override
    protected BatchStats atThreshold() {
      return stats(500, 1 << 20, 60_000, 8, 5, 1_000_000);
    }
  }

  @Nested
  class WallClock extends SealPolicyContractTest {
    @Override
    protected String providerName() {
      return "wall-clock";
    }

    @Override
    protected Map<String, String> properties() {
      return Map.of("every-ms", "60000");
    }

    /** Opened at 10:20 past a minute boundary, seen at 10:50: the same minute. */
    @Override
    protected BatchStats belowThreshold() {
      return stats(500, 1 << 20, 30_000, 3, 3, 650_000);
    }

    /** Opened at 10:20, seen at 11:00: the minute turned. */
    @Override
    protected BatchStats atThreshold() {
      return stats(500, 1 << 20, 40_000, 3, 3, 660_000);
    }
  }
}
