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

package org.apache.storm.iceberg.maintenance;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.JsonUtil;
import org.apache.storm.iceberg.spi.WalEntry;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The normalised paths of a table's pending WAL entries and of every string in their payloads, for
 * orphan removal. A payload is read as JSON without knowing the kernel's format; one that is not
 * JSON refuses the run, since the files it names cannot be told, except a probe the preflight check
 * left behind under its own scope ({@link WalScope#PREFLIGHT_TOPOLOGY}), which names no file: it is
 * passed over with a warning that says to delete it.
 *
 * @param entries the entry files themselves
 * @param named every JSON string value of every payload, as a path
 */
record WalFiles(Set<String> entries, Set<String> named) {
  private static final Logger LOG = LoggerFactory.getLogger(WalFiles.class);
  /** Where a file-based store keeps the probe's entries: {@code <namespace>/<topology>/<component>/<task>/}. */
  private static final String PROBE_SCOPE = "/" + WalScope.PREFLIGHT_TOPOLOGY + "/" + WalScope.PREFLIGHT_COMPONENT + "/0/";

  static WalFiles of(WalStore walStore, Table table) {
    Set<String> entries = new HashSet<>();
    Set<String> named = new HashSet<>();
    for (WalEntry entry : PendingWalEntries.of(walStore, table, "Cannot remove orphan files",
        "the files a pending entry names could be deleted")) {
      entries.add(OrphanFiles.Location.of(entry.location()).path());
      JsonNode payload = parse(table, entry);
      if (payload != null) {
        collectStrings(payload, named);
      }
    }
    return new WalFiles(entries, named);
  }

  /** The payload, or null for a preflight probe's that is not JSON. */
  private static JsonNode parse(Table table, WalEntry entry) {
    JsonNode root;
    try {
      root = JsonUtil.mapper().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(entry.payload());
    } catch (IOException e) {
      return notJson(table, entry, e.getMessage(), e);
    }
    if (root == null || root.isMissingNode()) {
      return notJson(table, entry, "it is empty", null);
    }
    return root;
  }

  private static JsonNode notJson(Table table, WalEntry entry, String why, Exception cause) {
    if (OrphanFiles.Location.of(entry.location()).path().contains(PROBE_SCOPE)) {
      LOG.warn("Orphan files of {}: WAL entry {} is a probe the preflight check left behind (its payload is not JSON and"
          + " names no file); it is passed over, delete it by hand", table.name(), entry.location());
      return null;
    }
    throw new IllegalStateException("Cannot remove orphan files of " + table.name() + ": the payload of WAL entry "
        + entry.location() + " is not JSON (" + why + "), so the files it names cannot be told; settle or remove the"
        + " entry first", cause);
  }

  /** Every textual node under {@code node}: a location is a string, whatever field holds it. */
  private static void collectStrings(JsonNode node, Set<String> into) {
    if (node.isTextual()) {
      into.add(OrphanFiles.Location.of(node.textValue()).path());
    } else {
      for (JsonNode child : node) {
        collectStrings(child, into);
      }
    }
  }
}
