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

package org.apache.storm.iceberg.kernel.seal;

import java.util.ArrayList;
import java.util.List;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.SealPolicy;

/** The seal policies of a sink: its commit-interval thresholds, then the policies chosen by the user. */
public final class SealPolicies {
  private SealPolicies() {}

  /** Every seal policy of the sink, named ones resolved on {@code loader}. The first one crossed seals. */
  public static List<SealPolicy> of(SinkSettings settings, ClassLoader loader) {
    List<SealPolicy> policies = thresholds(settings.thresholds());
    settings.providers().sealPolicies().forEach(choice -> policies.add(choice.resolve(loader)));
    return policies;
  }

  /** The commit-interval thresholds (records, bytes, age) as seal policies. */
  static List<SealPolicy> thresholds(SinkSettings.Thresholds thresholds) {
    List<SealPolicy> policies = new ArrayList<>();
    if (thresholds.records() > 0) {
      policies.add(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.RECORDS, thresholds.records()));
    }
    if (thresholds.bytes() > 0) {
      policies.add(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.BYTES, thresholds.bytes()));
    }
    if (thresholds.millis() > 0) {
      policies.add(new ThresholdSealPolicy(ThresholdSealPolicy.Measure.AGE_MILLIS, thresholds.millis()));
    }
    return policies;
  }
}
