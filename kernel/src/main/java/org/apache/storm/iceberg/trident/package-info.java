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

/**
 * Trident states that write into Iceberg, exactly once for transactional and opaque spouts. Two
 * ways: {@link org.apache.storm.iceberg.trident.IcebergStateFactory} with {@link
 * org.apache.storm.iceberg.trident.IcebergStateUpdater} in {@code partitionPersist}, one snapshot
 * per partition and transaction; or {@link org.apache.storm.iceberg.trident.IcebergTrident#persist},
 * one snapshot per transaction for the whole stream. Their serialized form is not a contract.
 *
 * @serial exclude
 */
package org.apache.storm.iceberg.trident;
