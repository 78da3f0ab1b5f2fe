package org.apache.storm.iceberg.kernel.task;

import org.apache.storm.iceberg.kernel.seal.TopologyChecks;
import org.apache.storm.iceberg.kernel.table.HadoopCatalogWarning;
import org.apache.storm.iceberg.kernel.table.TableLifecycle;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.kernel.secrets.Redaction;
import org.apache.storm.iceberg.kernel.seal.TimedSealPolicies;
import org.apache.storm.iceberg.kernel.seal.ThresholdSealPolicy;
import org.apache.storm.iceberg.kernel.seal.SealPolicies;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import org.apache.storm.iceberg.kernel.env.TaskIdentity;
import org.apache.storm.iceberg.kernel.env.TaskEnvironment;
import org.apache.storm.iceberg.kernel.commit.CommitProtocol;
import org.apache.storm.iceberg.kernel.commit.PositionsLedger;
import org.apache.storm.iceberg.kernel.batch.SealedBatch;
import org.apache.storm.iceberg.kernel.batch.OpenBatch;
import org.apache.storm.iceberg.kernel.batch.BatchFactory;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.storm.Config;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.kernel.ack.HeldTuples;
import org.apache.storm.iceberg.kernel.ack.Holders;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one writing task does, without the bolt around it: map each tuple and write it into the open
 * batch, seal the batch on the first threshold crossed (checked on every tuple and tick), and hand
 * the sealed batch to its {@link SealedBatchHandler}. For {@code IcebergBolt} the handler commits
 * through the {@link CommitProtocol} and acks (or fails) the tuples; for {@code IcebergWriterBolt}
 * it emits a descriptor of the files anchored to the tuples.
 *
 * <p>A tuple that cannot be mapped, or whose record the file writer would refuse, is failed on its
 * own, with a {@link TupleMappingException} reported, or emitted on the dead-letter stream when the
 * options name one ({@link DeadLetters}). A batch that cannot be written or sealed is failed whole. Not thread-safe: one executor
 * thread owns it.
 */
public final class SinkTask implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SinkTask.class);

  /**
   * The most records written between two reads of the clock. The clock is also read when a batch
   * opens and on every tick, so in a task receiving tick tuples a time threshold seals at most this
   * many records, or one tick, after it passes. A task without ticks whose policies may read time
   * reads it after every record.
   */
  public static final int RECORDS_PER_CLOCK_READ = 16;

  private final Catalog catalog;
  private final Table table;
  private final BatchFactory batches;
  private final SealPolicy[] policies;
  private final SealedBatchHandler handler;
  private final OutputCollector collector;
  private final LongSupplier clock;
  private final SinkMetrics metrics;
  private final TableLifecycle lifecycle;
  private final TupleIntake intake;
  private OpenBatch<?> batch;
  private final int recordsPerClockRead;
  private long lastClockMillis;
  private int recordsSinceClockRead;
  private long lastHandoffStartMillis;
  private long lastHandoffEndMillis;

  private SinkTask(
      OpenedTable opened,
      BatchFactory batches,
      List<SealPolicy> policies,
      SealedBatchHandler handler,
      TaskEnvironment env,
      TableLifecycle lifecycle,
      Deduplication dedup,
      DeadLetters deadLetters) {
    this.catalog = opened.catalog();
    this.intake = new TupleIntake(opened.table().name(), env.collector(), env.metrics(), dedup, deadLetters);
    this.lifecycle = lifecycle;
    this.table = opened.table();
    this.batches = batches;
    this.policies = policies.toArray(new SealPolicy[0]);
    this.handler = handler;
    this.collector = env.collector();
    this.clock = env.clock();
    this.metrics = env.metrics();
    boolean staleClockIsSeen = !receivesTicks(env) && policies.stream().anyMatch(TimedSealPolicies::readsTime);
    this.recordsPerClockRead = staleClockIsSeen ? 1 : RECORDS_PER_CLOCK_READ;
  }

  private static boolean receivesTicks(TaskEnvironment env) {
    return ObjectReader.getInt(env.topologyConfig().get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS), 0) > 0;
  }

  /**
   * Opens a committing task ({@code IcebergBolt}): opens the table (auto-creating it when
   * configured), checks it and the topology configuration, resolves the providers on this worker's
   * classpath, and drops the WAL entries this task's previous incarnation left.
   */
  public static SinkTask open(SinkSettings settings, TaskEnvironment env) {
    return create(
        settings,
        env,
        (opened, lifecycle) -> {
          HadoopCatalogWarning.warnIfCommitsMayRace(
              opened.catalog(), opened.table(), settings.target().catalogProperties(), env);
          CommitProtocol protocol = TaskCommitProtocol.open(opened.table(), settings, env, opened.loader());
          return new CommitThenAck(protocol, lifecycle, env);
        });
  }

  /** A committing task outside Storm, with its own metrics and the system clock. */
  public static SinkTask open(SinkSettings settings, TaskIdentity task, OutputCollector collector) {
    return open(settings, TaskEnvironment.detached(task, collector, System::currentTimeMillis));
  }

  public static SinkTask open(SinkSettings settings, TaskIdentity task, OutputCollector collector, LongSupplier clock) {
    return open(settings, TaskEnvironment.detached(task, collector, clock));
  }

  /**
   * Opens a writing task of the split sink ({@code IcebergWriterBolt}): as {@link #open}, but each
   * sealed batch is emitted as a descriptor for the committer, and no WAL is written.
   */
  public static SinkTask openWriter(SinkSettings settings, TaskEnvironment env) {
    return create(settings, env, (opened, lifecycle) -> new DescriptorEmitter(opened.table(), env));
  }

  public static SinkTask openWriter(SinkSettings settings, TaskIdentity task, OutputCollector collector, LongSupplier clock) {
    return openWriter(settings, TaskEnvironment.detached(task, collector, clock));
  }

  private static SinkTask create(
      SinkSettings settings,
      TaskEnvironment env,
      java.util.function.BiFunction<OpenedTable, TableLifecycle, SealedBatchHandler> handlerFactory) {
    TopologyChecks.forWriter(settings, env);
    Path spillDirectory = Holders.requireSpillDirectory(settings.spillPath());
    return OpenedTable.open(settings.target())
        .build(
            opened -> {
              TableLifecycle lifecycle = TableLifecycle.of(opened, settings.target(), env.metrics());
              List<SealPolicy> policies = SealPolicies.of(settings, opened.loader());
              BatchFactory batches = new BatchFactory(opened.table(), settings.providers().fileFormat(),
                  settings.providers().recordMapper().resolve(opened.loader()), opened.loader(), env.task(), spillDirectory,
                  ThresholdSealPolicy.smallestLimit(policies, ThresholdSealPolicy.Measure.BYTES), env.metrics());
              return new SinkTask(opened, batches, policies, handlerFactory.apply(opened, lifecycle), env, lifecycle,
                  deduplication(settings, opened.loader(), env), DeadLetters.of(settings, opened.table().name(), env));
            });
  }

  private static Deduplication deduplication(SinkSettings settings, ClassLoader loader, TaskEnvironment env) {
    SinkSettings.SourcePositions positions = settings.sourcePositions();
    return positions == null ? null : new Deduplication(positions.extractor().resolve(loader),
        new PositionsLedger(settings.commits().walNamespace(), env.task().topology()), positions.resetAccepted(), env.metrics());
  }

  /** This task's metrics. */
  public SinkMetrics metrics() {
    return metrics;
  }

  public void execute(Tuple tuple) {
    if (TupleUtils.isTick(tuple)) {
      sealIfDue(readClockAndPublishCounts());
      return;
    }
    OpenBatch<?> open;
    try {
      open = currentBatch();
    } catch (RuntimeException e) {
      Exception error = lifecycle.reportable(e);
      LOG.warn("Cannot open a batch for {}; failing the tuple", table.name(), Redaction.of(error));
      collector.reportError(error);
      collector.fail(tuple);
      return;
    }
    if (write(open, tuple)) {
      sealIfDue(++recordsSinceClockRead >= recordsPerClockRead ? readClockAndPublishCounts() : lastClockMillis);
    }
  }

  /** Reads the clock, and publishes the records written since the last read to their counter. */
  private long readClockAndPublishCounts() {
    recordsSinceClockRead = 0;
    metrics.publishRecordsWritten();
    lastClockMillis = clock.getAsLong();
    return lastClockMillis;
  }

  /**
   * Takes the tuple into the open batch ({@link TupleIntake}); a write that breaks the batch fails
   * the batch and the tuple.
   *
   * @return whether the tuple's record is in the batch
   */
  private boolean write(OpenBatch<?> open, Tuple tuple) {
    try {
      return intake.take(open, tuple);
    } catch (TupleIntake.BrokenBatchException e) {
      batch = null;
      metrics.nothingPending();
      failBatch(open.abandon(), e.failure());
      collector.fail(tuple);
      return false;
    }
  }

  /** Seals and commits the open batch when a seal policy says so. */
  private void sealIfDue(long nowMillis) {
    if (batch == null || batch.isEmpty()) {
      return;
    }
    BatchStats stats = batch.stats(nowMillis);
    for (SealPolicy policy : policies) {
      if (policy.shouldSeal(stats)) {
        sealAndHandOff();
        return;
      }
    }
  }

  private void sealAndHandOff() {
    metrics.publishRecordsWritten();
    OpenBatch<?> sealing = batch;
    batch = null;
    SealedBatch sealed;
    long started = System.nanoTime();
    try {
      sealed = sealing.seal();
    } catch (RuntimeException e) {
      metrics.nothingPending();
      failBatch(sealing.abandon(), e);
      return;
    }
    metrics.sealed(sealed.dataFiles().size(), System.nanoTime() - started);
    metrics.pending(sealed.dataFiles().size(), sealing.openedAtMillis());
    lastHandoffStartMillis = clock.getAsLong();
    try {
      handler.handle(sealed);
    } finally {
      sealed.tuples().release();
      lastHandoffEndMillis = clock.getAsLong();
    }
  }

  /**
   * When the first tuple of a batch opening now reached this task, as far as the task can tell.
   * While a handoff (a commit) runs, the executor takes nothing from its queue, so a tuple taken
   * within one handoff's duration after it ended is taken to have waited since the handoff began:
   * its commit deadline then counts from there, not from when the executor got to it.
   */
  private long firstTupleArrivalMillis(long nowMillis) {
    long handoffMillis = lastHandoffEndMillis - lastHandoffStartMillis;
    return nowMillis - lastHandoffEndMillis < handoffMillis ? lastHandoffStartMillis : nowMillis;
  }

  private OpenBatch<?> currentBatch() {
    if (batch == null) {
      // Every batch is written against fresh metadata, so schema changes made outside are seen.
      lifecycle.refresh(table);
      intake.refresh(table);
      batch = batches.open(firstTupleArrivalMillis(readClockAndPublishCounts()));
      metrics.pending(0, batch.openedAtMillis());
    }
    return batch;
  }

  /** Fails every tuple of a broken batch, then lets go of them. */
  private void failBatch(HeldTuples tuples, Exception cause) {
    try {
      BatchFailures.failAll(collector, tuples, cause);
    } finally {
      tuples.release();
    }
  }

  /** Closes the catalog under a call still running on another thread, leaving its batch alone. */
  public void abandon() {
    OpenedTable.closeCatalog(catalog);
  }

  /** Abandons the open batch (its tuples time out and replay) and closes the catalog. */
  @Override
  public void close() {
    metrics.publishRecordsWritten();
    if (batch != null) {
      batch.abandon().release();
      batch = null;
    }
    OpenedTable.closeCatalog(catalog);
  }
}
