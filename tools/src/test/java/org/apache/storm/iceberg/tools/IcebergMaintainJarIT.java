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

package org.apache.storm.iceberg.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -jar storm-iceberg-tools-….jar maintain}, in a JVM of its own, as cron runs it. */
class IcebergMaintainJarIT {
  @TempDir Path warehouse;

  @Test
  void maintainCompactsAndExpiresATableAndKeepsItsRows() throws Exception {
    MaintainedTable maintained = MaintainedTable.create(warehouse);
    long token = maintained.table().currentSnapshot().snapshotId();

    IcebergInspectJarIT.Run run = IcebergInspectJarIT.javaJar(maintained.args("maintain", "--compact", "--compaction-option",
        "min-input-files=2", "--expire", "--expire-max-age", "PT0S", "--retain-last", "1"));

    assertThat(run.exitCode()).as("exit code; stderr:\n%s", run.stderr()).isZero();
    assertThat(run.stdout()).contains("compaction: 1 groups planned, 1 committed, 0 dropped on conflict; 6 files rewritten into 1")
        .contains("expiry: 5 snapshots expired").contains("needs the source positions of default in snapshot " + token);
    maintained.table().refresh();
    assertThat(maintained.table().snapshot(token)).isNotNull();
    assertThat(maintained.ids()).isEqualTo(LongStream.range(0, MaintainedTable.RECORDS).boxed().toList());
  }
}
