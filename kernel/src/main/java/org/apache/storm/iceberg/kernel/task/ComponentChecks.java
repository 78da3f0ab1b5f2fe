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

import java.util.Map;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.iceberg.kernel.commit.CommitDeadline;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.seal.TopologyChecks;

/**
 * The checks a sink component's tasks run at prepare that need only the topology: its configuration
 * (message timeout against the commit intervals and the deadline margin, tick tuples, pending
 * tuples) and its groupings. The tasks run them where they open; this runs the same ones for one
 * component before submission, where a mistake fails on the submitting client instead of
 * restarting every worker in a loop.
 */
public final class ComponentChecks {
  /** What a sink component does with its batches, which decides what it checks. */
  public enum Role {
    /** {@code IcebergBolt}: writes and commits. */
    SINK("IcebergBolt", true, true),
    /** {@code IcebergWriterBolt}: writes, hands its files on. */
    WRITER("IcebergWriterBolt", true, false),
    /** {@code IcebergCommitterBolt}: commits what writers hand on. */
    COMMITTER("IcebergCommitterBolt", false, true);

    private final String boltName;
    private final boolean writes;
    private final boolean commits;

    Role(String boltName, boolean writes, boolean commits) {
      this.boltName = boltName;
      this.writes = writes;
      this.commits = commits;
    }

    /** The simple name of the bolt class that plays this role. */
    public String boltName() {
      return boltName;
    }

    /** Whether tasks of this role map tuples into records. */
    public boolean writes() {
      return writes;
    }
  }

  private ComponentChecks() {}

  /**
   * Refuses a row-level write mode where {@code role} cannot keep its guarantee: without source
   * positions, a replayed change could undo a newer one, in {@code IcebergBolt} as in the split sink.
   *
   * @throws IllegalStateException naming the fix
   */
  public static void requireRowLevelSupported(Role role, SinkSettings settings) {
    SinkSettings.RowLevel rowLevel = settings.rowLevel();
    if (!rowLevel.byKey() || settings.sourcePositions() != null) {
      return;
    }
    String mode = rowLevel.mode().name().toLowerCase(java.util.Locale.ROOT);
    String sink = role == Role.SINK ? "IcebergBolt" : "The split sink (IcebergWriterBolt, IcebergCommitterBolt)";
    String where = role == Role.SINK ? "" : " on the writer's and the committer's options";
    throw new IllegalStateException(sink + " in write mode " + mode + " needs Kafka source positions"
        + " (withSourcePositions(\"kafka\", ...)" + where + "): without them a replayed change could undo a newer one");
  }

  /**
   * Runs {@code role}'s checks for a task of {@code task}'s component.
   *
   * @param conf the configuration its tasks will run with: the topology's, the component's over it
   * @param sources the streams that feed the component, with their groupings
   * @throws IllegalStateException naming the setting and how to fix it
   */
  public static void run(
      Role role, SinkSettings settings, TaskIdentity task, Map<String, Object> conf, Map<GlobalStreamId, Grouping> sources,
      ClassLoader loader) {
    requireRowLevelSupported(role, settings);
    if (role.writes) {
      SourceOwnership.require(settings, task.component(), task.componentTasks(), sources, loader);
      TopologyChecks.forWriter(settings, task, conf);
    } else {
      TopologyChecks.forCommitter(settings, conf);
    }
    if (role.commits) {
      CommitDeadline.of(conf, settings.commits().deadlineMarginMillis(), System::currentTimeMillis);
    }
  }
}
