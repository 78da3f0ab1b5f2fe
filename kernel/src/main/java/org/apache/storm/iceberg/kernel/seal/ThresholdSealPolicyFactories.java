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

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SealPolicyFactory;

/** Registers the built-in thresholds by name; each takes one property, {@code limit}. */
public final class ThresholdSealPolicyFactories {
  private ThresholdSealPolicyFactories() {}

  /** A threshold provider: its name and the statistic it watches. */
  abstract static class ThresholdFactory implements SealPolicyFactory {
    private final String name;
    private final ThresholdSealPolicy.Measure measure;

    ThresholdFactory(String name, ThresholdSealPolicy.Measure measure) {
      this.name = name;
      this.measure = measure;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public SealPolicy create(Map<String, String> properties) {
      ProviderProperties.check("seal policy '" + name + "'", properties, Set.of("limit"), Set.of());
      return new ThresholdSealPolicy(measure, PolicyProperties.wholeNumber(name, properties, "limit"));
    }
  }

  /** {@code "records"}: seal at {@code limit} records. */
  @AutoService(SealPolicyFactory.class)
  public static final class Records extends ThresholdFactory {
    public Records() {
      super("records", ThresholdSealPolicy.Measure.RECORDS);
    }
  }

  /** {@code "bytes"}: seal at {@code limit} bytes written. */
  @AutoService(SealPolicyFactory.class)
  public static final class Bytes extends ThresholdFactory {
    public Bytes() {
      super("bytes", ThresholdSealPolicy.Measure.BYTES);
    }
  }

  /** {@code "age"}: seal once the batch's first record is {@code limit} milliseconds old. */
  @AutoService(SealPolicyFactory.class)
  public static final class Age extends ThresholdFactory {
    public Age() {
      super("age", ThresholdSealPolicy.Measure.AGE_MILLIS);
    }
  }
}
