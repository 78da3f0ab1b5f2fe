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
 * The public API of storm-iceberg: the bolts ({@link org.apache.storm.iceberg.IcebergBolt}, the
 * split sink's {@link org.apache.storm.iceberg.IcebergWriterBolt} and {@link
 * org.apache.storm.iceberg.IcebergCommitterBolt}), their {@link org.apache.storm.iceberg.IcebergOptions},
 * and what they throw. The Trident states are in {@code org.apache.storm.iceberg.trident}, the
 * plug-in contracts in {@code org.apache.storm.iceberg.spi}; everything under {@code
 * org.apache.storm.iceberg.kernel} is internal and may change in any release.
 *
 * <p>These classes are serializable because Storm ships them to its workers; their serialized form
 * is not a contract: submit a topology with the same release its workers run.
 *
 * @serial exclude
 */
package org.apache.storm.iceberg;
