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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inspect tool's report, on a table with storm-iceberg commits and a crashed task's pending WAL entry. */
class IcebergInspectTest {
  @TempDir Path warehouse;

  @Test
  void itReportsCommitsPendingWalEntriesAndSmallFiles() {
    InspectedTable inspected = InspectedTable.create(warehouse);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    IcebergInspect.inspect(inspected.table(), inspected.wal(), 20, InspectedTable.PENDING_CREATED_AT_MILLIS + 60_000L,
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String report = bytes.toString(StandardCharsets.UTF_8);

    assertThat(report)
        .contains("recent storm-iceberg commits (newest first, 2 shown)")
        .contains(inspected.lastCommitId())
        .contains("iceberg/0")
        .contains("pending WAL entries (1)")
        .contains("/metadata/_storm_wal/default/events-topology/iceberg/1/crashed-commit.json")
        .contains("commit crashed-commit, age 60 s, 1 data files:")
        .contains(inspected.pendingFile().location())
        .contains("small files: the last 2 commits added 2 data files, 4096 bytes each on average")
        .contains("SMALL FILES: commit less often");
  }

  @Test
  void badArgumentsSayWhatIsExpected() {
    assertThatThrownBy(() -> IcebergInspect.Arguments.parse(new String[] {"--tabel", "x"}))
        .hasMessageStartingWith("unknown option --tabel; use --catalog KEY=VALUE");
    assertThatThrownBy(() -> IcebergInspect.Arguments.parse(new String[] {"--table", "db.t"}))
        .hasMessage("usage: IcebergInspect --catalog KEY=VALUE ... --table NS.TABLE");
    assertThatThrownBy(() -> IcebergInspect.Arguments.parse(new String[] {"--catalog", "s3cr3t"}))
        .hasMessage("expected KEY=VALUE, got a value without '='");
  }
}
