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

package org.apache.storm.iceberg.kernel.task;

import org.apache.iceberg.Table;
import org.apache.storm.iceberg.kernel.table.HadoopCatalogWarning;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.iceberg.kernel.commit.CommitBranch;
import org.apache.storm.iceberg.kernel.commit.CommitDeadline;
import org.apache.storm.iceberg.kernel.commit.CommitProtocol;
import org.apache.storm.iceberg.kernel.commit.PositionsLedger;
import org.apache.storm.iceberg.kernel.commit.CommitSettler;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.options.ProviderRegistry;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.iceberg.spi.WalStoreFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the commit protocol of one committing task from its settings: the wiring the commit stage does not do itself. */
final class TaskCommitProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(TaskCommitProtocol.class);

  private TaskCommitProtocol() {}

  /**
   * {@code IcebergBolt}'s handler: commits on {@code commitThread} ({@link CommitPipeline}) against
   * a table object of its own, so the executor thread's refreshes never race a commit's.
   */
  static CommitPipeline pipeline(TaskParts parts, SinkSettings settings, TaskEnvironment env, CommitThread commitThread) {
    OpenedTable opened = parts.opened();
    HadoopCatalogWarning.warnIfCommitsMayRace(opened.catalog(), opened.table(), settings.target().catalogProperties(), env);
    Table committed = opened.catalog().loadTable(settings.target().tableIdentifier());
    CommitProtocol protocol = open(committed, settings, env, opened.loader());
    return new CommitPipeline(new CommitThenAck(protocol, parts.lifecycle(), env, parts.fence(),
        CommitEvents.of(settings, protocol)), commitThread,
        settings.commits().maxPendingCommits(), env.metrics());
  }

  /**
   * Resolves the settings' WAL store on {@code loader}, checks it can serve the table, scopes it to
   * the task, and drops (and counts) the entries the task's previous incarnation left.
   */
  static CommitProtocol open(Table table, SinkSettings settings, TaskEnvironment env, ClassLoader loader) {
    TaskIdentity task = env.task();
    SinkSettings.Commits commits = settings.commits();
    CommitDeadline deadline = CommitDeadline.of(env.topologyConfig(), commits.deadlineMarginMillis(), env.clock());
    WalStore wal = settings.providers().walStore().resolve(loader);
    ProviderRegistry.find(WalStoreFactory.class, settings.providers().walStore().name(), loader).validate(table);
    WalScope scope = new WalScope(table, commits.walNamespace(), task.topology(), task.component(), task.taskIndex());
    CommitBranch branch = new CommitBranch(commits.branch());
    CommitProtocol protocol =
        new CommitProtocol(table, wal, scope, commits.snapshotProperties(),
            new CommitSettler.Retries(commits.retries(), commits.retryBackoffMillis()), deadline,
            new PositionsLedger(commits.walNamespace(), commits.branch()), branch);
    int dropped = protocol.clearStaleEntries();
    if (dropped > 0) {
      LOG.warn("Task {} dropped {} stale WAL entries of its previous incarnation", task, dropped);
    }
    env.metrics().walEntriesDropped(dropped);
    return protocol;
  }
}
