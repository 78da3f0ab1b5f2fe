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
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.SealPolicyFactory;

/**
 * Seals a batch that spans more than {@code maxPartitions} partitions or has opened more than {@code
 * maxOpenFiles} data files. Each open file holds its format's write buffers (a Parquet row group is
 * buffered in memory until it is flushed), so this bounds the sink's memory when a stream scatters
 * over many partitions. The check runs right after each record, so at most one file more than the
 * limit is ever open.
 */
public final class OpenFilesSealPolicy implements SealPolicy {
  private static final long serialVersionUID = 1L;

  private final int maxPartitions;
  private final int maxOpenFiles;

  /** @param maxPartitions 0 for no partition limit; @param maxOpenFiles 0 for no file limit */
  public OpenFilesSealPolicy(int maxPartitions, int maxOpenFiles) {
    if (maxPartitions < 0 || maxOpenFiles < 0 || (maxPartitions == 0 && maxOpenFiles == 0)) {
      throw new IllegalArgumentException(
          "seal policy 'open-files' needs max-partitions or max-open-files (or both) positive, got "
              + maxPartitions + " and " + maxOpenFiles);
    }
    this.maxPartitions = maxPartitions;
    this.maxOpenFiles = maxOpenFiles;
  }

  @Override
  public boolean shouldSeal(BatchStats stats) {
    return (maxPartitions > 0 && stats.partitions() > maxPartitions)
        || (maxOpenFiles > 0 && stats.openFiles() > maxOpenFiles);
  }

  @Override
  public String toString() {
    return "open-files{max-partitions=" + maxPartitions + ", max-open-files=" + maxOpenFiles + "}";
  }

  /** {@code "open-files"}: properties {@code max-partitions} and/or {@code max-open-files}. */
  @AutoService(SealPolicyFactory.class)
  public static final class Factory implements SealPolicyFactory {
    @Override
    public String name() {
      return "open-files";
    }

    @Override
    public SealPolicy create(Map<String, String> properties) {
      ProviderProperties.check("seal policy 'open-files'", properties, Set.of(), Set.of("max-partitions", "max-open-files"));
      return new OpenFilesSealPolicy(
          (int) PolicyProperties.wholeNumber("open-files", properties, "max-partitions"),
          (int) PolicyProperties.wholeNumber("open-files", properties, "max-open-files"));
    }
  }
}
