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

package org.apache.storm.iceberg.spi;

/**
 * What a {@link SealPolicy} sees of the open batch.
 *
 * @param records records written into the batch's open files
 * @param bytes bytes written so far: Iceberg's writer estimate, refreshed often enough that a batch
 *     seals within about one record of the sink's {@code bytes} threshold
 * @param ageMillis time since the batch's first record, by the task's clock as last read
 * @param openFiles data files the batch has opened (rolled files included)
 * @param partitions partitions the batch spans
 * @param nowMillis the task's clock (epoch milliseconds) as last read, which may be a few records or
 *     one tick interval behind (see {@link SealPolicy}); the batch's first record arrived at {@code
 *     nowMillis - ageMillis}
 */
public record BatchStats(long records, long bytes, long ageMillis, int openFiles, int partitions, long nowMillis) {}
