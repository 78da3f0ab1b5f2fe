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

import java.util.List;

/**
 * Keeps the commit entries of the write-ahead log: put before an append, deleted after it.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@link #put} is durable when it returns; it returns the entry's location. Another store made
 *       by the same factory with the same properties (a task restarting elsewhere) lists it.
 *   <li>{@link #list} returns every entry put in {@code scope} and not yet deleted, with the payload
 *       exactly as put, and nothing from any other scope.
 *   <li>{@link #delete} of an entry that does not exist is not an error.
 *   <li>Failures surface as unchecked exceptions that name the location involved.
 *   <li>Payloads are opaque bytes; commit ids may hold any character.
 *   <li>Several tasks, each with its own scope, use one store at once.
 * </ul>
 *
 * <p>Whether a store can serve a table at all is its factory's to say ({@link
 * WalStoreFactory#validate}); a store that can list a whole table for operators' tools also
 * implements {@link WalStoreListing}.
 */
public interface WalStore {
  String put(WalScope scope, String commitId, byte[] payload);

  List<WalEntry> list(WalScope scope);

  void delete(WalScope scope, String commitId);
}
