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
 * Internal to storm-iceberg: not an API, and changed without notice. The source-position stage:
 * which source positions (Kafka offsets, for example) a sink's commits hold, as compact ranges per
 * source partition ({@link org.apache.storm.iceberg.kernel.position.Positions}); how each commit
 * records all of them in its snapshot summary, so the table alone says what is committed; and how
 * a task skips a tuple whose position is already committed or held; and, for a routing task, which
 * offsets routed to other tables each table's commits may claim so its positions stay one range per
 * partition ({@link org.apache.storm.iceberg.kernel.position.OffsetClaims}).
 */
package org.apache.storm.iceberg.kernel.position;
