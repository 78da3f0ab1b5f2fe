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

package org.apache.storm.iceberg.kernel.batch;

/**
 * When a batch refreshes its byte estimate. An estimate walks every open file's column buffers, so
 * it is not taken after every record; but a batch of large records must not run far past its bytes
 * threshold between two estimates. So the first estimate comes with the first record, and each next
 * one after half the records that would reach the threshold at the most bytes per record seen
 * between two estimates: the gap halves as the batch nears the threshold, and the batch seals
 * within about one record of it. There are never more than {@link #MAX_GAP_RECORDS}
 * records between two estimates. Iceberg's own Parquet writer schedules its row-group size checks
 * the same way. Far from the threshold small records see the same 1000-record gap as ever; near it
 * they cost a few more estimates a batch (one per halving), not one per record.
 */
public final class ByteEstimates {
  /**
   * Byte estimates walk every open file's column buffers, so they are refreshed at most every this
   * many records: as often as Iceberg's own rolling writer checks a file's size against its target.
   */
  public static final int MAX_GAP_RECORDS = 1000;
  private final long bytesLimit;
  private long nextAtRecords = 1;
  private long lastRecords;
  private long lastBytes;
  private double maxBytesPerRecord;

  /** {@code bytesLimit}: the smallest bytes threshold, {@link Long#MAX_VALUE} for none. */
  ByteEstimates(long bytesLimit) {
    this.bytesLimit = bytesLimit;
  }

  /** Whether the estimate is due after the batch's {@code records}-th record. */
  boolean due(long records) {
    return records >= nextAtRecords;
  }

  /** Takes note of the estimate {@code bytes} after {@code records} records, and schedules the next. */
  void refreshed(long records, long bytes) {
    if (records > lastRecords) {
      maxBytesPerRecord = Math.max(maxBytesPerRecord, (double) Math.max(0, bytes - lastBytes) / (records - lastRecords));
    }
    lastRecords = records;
    lastBytes = bytes;
    long gap = MAX_GAP_RECORDS;
    if (bytesLimit != Long.MAX_VALUE && maxBytesPerRecord > 0) {
      gap = (long) Math.max(1, Math.min(gap, (bytesLimit - bytes) / maxBytesPerRecord / 2));
    }
    nextAtRecords = records + gap;
  }
}
