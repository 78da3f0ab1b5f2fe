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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.actions.BinPackRewriteFilePlanner;
import org.apache.iceberg.actions.FileRewritePlan;
import org.apache.iceberg.actions.RewriteDataFiles;
import org.apache.iceberg.actions.RewriteDataFilesCommitManager;
import org.apache.iceberg.actions.RewriteFileGroup;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriteResult;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.storm.iceberg.spi.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction without Spark: Iceberg's bin-pack planner picks the groups of small files (and of files
 * with many deletes), each group is read with its deletes applied (iceberg-data's delete filter) and
 * written again with Iceberg's generic writers, and each group commits on its own through Iceberg's
 * rewrite commit manager.
 *
 * <p>After the groups commit, the delete files no data file needs any more are removed ({@link
 * DanglingDeletes}): the equality deletes the compacted groups absorbed, and position deletes left
 * naming a data file that was rewritten away (on v3 Iceberg's rewrite commit already drops the
 * deletion vector of each file it removes; a vector committed without validation may still dangle).
 *
 * <p>The sink always wins. New files take the sequence number of the snapshot the plan read
 * (starting sequence number), so equality deletes the sink commits meanwhile still apply to them;
 * a group whose commit fails validation against concurrent commits (a delete by position, a
 * deletion vector, of a row it rewrote: a position does not follow its row into a new file) drops
 * its new files and is planned again next time. Compaction never blocks a commit or fails a tuple.
 */
public final class DataCompaction {
  private static final Logger LOG = LoggerFactory.getLogger(DataCompaction.class);
  /** Marks maintenance's snapshots ("compaction", "manifest-rewrite"), so a reader of the history tells them from the sink's. */
  public static final String SUMMARY_KEY = "storm.iceberg.maintenance";

  /**
   * What a run did.
   *
   * @param startingSnapshotId the snapshot the plan read, or null for an empty branch
   */
  public record Result(Long startingSnapshotId, int groupsPlanned, int groupsCommitted, int groupsAbandoned, int filesRewritten, int filesAdded,
      int deleteFilesRemoved) {}

  private final Map<String, String> plannerOptions;
  private final CompactionFormat format;

  /**
   * Compacts into the table's current format, as Iceberg's writers write it.
   *
   * @param plannerOptions Iceberg's rewrite options, as its {@code rewrite_data_files} procedure takes
   *     them ({@code min-input-files}, {@code target-file-size-bytes}, {@code delete-file-threshold},
   *     {@code rewrite-all}, ...); unknown ones are refused when a run plans
   */
  public DataCompaction(Map<String, String> plannerOptions) {
    this(plannerOptions, CompactionFormat.FOLLOW_TABLE);
  }

  /**
   * As {@link #DataCompaction(Map)}, writing through the sink's file-format provider: {@code
   * fileFormat} with {@code fileFormatProperties} (null for the table's format, as the sink's
   * default), and {@code writeProperties} over the table's, as the sink's {@code withFileFormat} and
   * {@code withWriteProperties}.
   *
   * @throws IllegalArgumentException when no provider named {@code fileFormat} is on the classpath
   */
  public DataCompaction(Map<String, String> plannerOptions, String fileFormat, Map<String, String> fileFormatProperties,
      Map<String, String> writeProperties) {
    this(plannerOptions, new CompactionFormat(fileFormat, fileFormatProperties, writeProperties));
    if (fileFormat != null) {
      requireFileFormat(fileFormat);
    }
  }

  /** @throws IllegalArgumentException naming the providers there are, when none named {@code fileFormat} is on the classpath */
  public static void requireFileFormat(String fileFormat) {
    CompactionFormat.requireProvider(fileFormat, Thread.currentThread().getContextClassLoader());
  }

  /** As {@link #DataCompaction(Map)}, writing through the file-format provider {@code format} chooses. */
  DataCompaction(Map<String, String> plannerOptions, CompactionFormat format) {
    this.plannerOptions = Map.copyOf(plannerOptions);
    this.format = format;
  }

  /** Compacts {@code branch} of {@code table} as it stands; the caller refreshed it. */
  public Result run(Table table, String branch) {
    return run(table, branch, false);
  }

  /**
   * As {@link #run(Table, String)}; with {@code dryRun}, plans only, and the result counts the files
   * the groups would rewrite and the files the planner expects them to become.
   */
  public Result run(Table table, String branch, boolean dryRun) {
    Snapshot head = table.snapshot(branch);
    if (head == null) {
      return new Result(null, 0, 0, 0, 0, 0, 0);
    }
    BinPackRewriteFilePlanner planner = new BinPackRewriteFilePlanner(table, Expressions.alwaysTrue(), head.snapshotId(), false);
    planner.init(plannerOptions);
    FileRewritePlan<RewriteDataFiles.FileGroupInfo, FileScanTask, DataFile, RewriteFileGroup> plan = planner.plan();
    RewriteDataFilesCommitManager commits =
        new RewriteDataFilesCommitManager(table, head.snapshotId(), true, Map.of(SUMMARY_KEY, "compaction"), branch);
    String operation = UUID.randomUUID().toString();
    int planned = 0;
    int committed = 0;
    int rewritten = 0;
    int added = 0;
    try (CloseableIterable<RewriteFileGroup> groups = plan.groups()) {
      for (RewriteFileGroup group : groups) {
        planned++;
        if (dryRun) {
          rewritten += group.inputFileNum();
          added += group.expectedOutputFiles();
          continue;
        }
        group.setOutputFiles(rewrite(table, group, operation, format));
        if (commit(table, commits, group)) {
          committed++;
          rewritten += group.rewrittenFiles().size();
          added += group.addedFiles().size();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the compaction plan of " + table.name(), e);
    }
    int danglingRemoved = 0;
    if (committed > 0) {
      table.refresh();
      danglingRemoved = DanglingDeletes.remove(table, branch);
    }
    return new Result(head.snapshotId(), planned, committed, dryRun ? 0 : planned - committed, rewritten, added, danglingRemoved);
  }

  /** Commits one group; a group the sink's commits made invalid is dropped with its new files. */
  private static boolean commit(Table table, RewriteDataFilesCommitManager commits, RewriteFileGroup group) {
    try {
      commits.commitFileGroups(Set.of(group));
      return true;
    } catch (CommitStateUnknownException e) {
      // Its files may be in the table: leave them, as Iceberg does; a later orphan pass finds them if not.
      LOG.warn("Compaction of {}: a group's commit state is unknown; its files are kept", table.name(), Redaction.of(e));
      return false;
    } catch (RuntimeException e) {
      LOG.info("Compaction of {}: a group conflicted with concurrent commits and is dropped, to be planned again: {}",
          table.name(), Redaction.redact(e.getMessage()));
      commits.abortFileGroup(group);
      return false;
    }
  }

  /** The group's rows, deletes applied, written again in the table's current spec, in the format {@code format} chooses. */
  private static Set<DataFile> rewrite(Table table, RewriteFileGroup group, String operation, CompactionFormat format) {
    Schema schema = table.schema();
    PartitionSpec spec = table.specs().get(group.outputSpecId());
    CompactionFormat.Writers writers = format.writers(table, schema);
    OutputFileFactory files = OutputFileFactory.builderFor(table, group.info().globalIndex(), 0)
        .format(writers.format()).operationId("compaction-" + operation).defaultSpec(spec).build();
    PartitionKey partition = new PartitionKey(spec, schema);
    InternalRecordWrapper internal = new InternalRecordWrapper(schema.asStruct());
    FanoutDataWriter<Record> out = new FanoutDataWriter<>(writers.factory(), files, table.io(), group.maxOutputFileSize());
    try {
      try (out) {
        for (FileScanTask task : group.fileScanTasks()) {
          try (CloseableIterable<Record> rows = liveRows(table, schema, task)) {
            for (Record row : rows) {
              partition.partition(internal.wrap(row));
              out.write(row, spec, partition);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot rewrite a compaction group of " + table.name(), e);
    }
    DataWriteResult result = out.result();
    return new HashSet<>(result.dataFiles());
  }

  /** The rows of {@code task} its deletes leave, in {@code schema}. */
  private static CloseableIterable<Record> liveRows(Table table, Schema schema, FileScanTask task) {
    GenericDeleteFilter deletes = new GenericDeleteFilter(table.io(), task, schema, schema);
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    CloseableIterable<Record> read = FormatModelRegistry.<Record, Schema>readBuilder(task.file().format(), Record.class,
            table.io().newInputFile(task.file()))
        .project(deletes.requiredSchema())
        .split(task.start(), task.length())
        .idToConstant(constants)
        .build();
    return CloseableIterable.transform(deletes.filter(read), row -> copyInto(schema, row));
  }

  /** The row in exactly {@code schema}: the delete filter may have read columns (such as the row position) the table has not. */
  private static Record copyInto(Schema schema, Record row) {
    Record copy = GenericRecord.create(schema);
    for (Types.NestedField field : schema.columns()) {
      copy.setField(field.name(), row.getField(field.name()));
    }
    return copy;
  }

  @Override
  public String toString() {
    return "DataCompaction" + Objects.toString(plannerOptions);
  }
}
