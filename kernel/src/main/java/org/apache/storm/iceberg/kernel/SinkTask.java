package org.apache.storm.iceberg.kernel;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.IcebergOptions;
import org.apache.storm.iceberg.TupleMappingException;
import org.apache.storm.iceberg.spi.BatchStats;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.SealPolicy;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.WalStore;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one {@code IcebergBolt} task does, without the bolt around it: map each tuple and write it
 * into the open batch, seal the batch on the first threshold crossed (checked on every tuple and
 * tick), commit it through the {@link CommitProtocol}, then ack its tuples, or fail them all.
 *
 * <p>A tuple that cannot be mapped is failed on its own, with a {@link TupleMappingException}
 * reported. A batch that cannot be written or sealed is failed whole. Not thread-safe: one executor
 * thread owns it.
 */
public final class SinkTask implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SinkTask.class);

  private final Catalog catalog;
  private final Table table;
  private final BatchFactory batches;
  private final RecordMapper mapper;
  private final List<SealPolicy> policies;
  private final CommitProtocol protocol;
  private final OutputCollector collector;
  private final LongSupplier clock;
  private OpenBatch batch;

  SinkTask(
      Catalog catalog,
      Table table,
      BatchFactory batches,
      RecordMapper mapper,
      List<SealPolicy> policies,
      CommitProtocol protocol,
      OutputCollector collector,
      LongSupplier clock) {
    this.catalog = catalog;
    this.table = table;
    this.batches = batches;
    this.mapper = mapper;
    this.policies = policies;
    this.protocol = protocol;
    this.collector = collector;
    this.clock = clock;
  }

  /**
   * Opens the table (auto-creating it when configured), checks it, resolves the providers on this
   * worker's classpath, and drops the WAL entries this task's previous incarnation left.
   */
  public static SinkTask open(IcebergOptions options, TaskIdentity task, OutputCollector collector) {
    return open(options, task, collector, System::currentTimeMillis);
  }

  /** As {@link #open(IcebergOptions, TaskIdentity, OutputCollector)}, with the clock batch ages use. */
  static SinkTask open(
      IcebergOptions options, TaskIdentity task, OutputCollector collector, LongSupplier clock) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    Catalog catalog = TableSetup.loadCatalog(options);
    Table table = TableSetup.openTable(catalog, options);
    WalStore wal = options.walStore().resolve(loader);
    WalScope scope =
        new WalScope(table, options.walNamespace(), task.topology(), task.component(), task.taskIndex());
    CommitProtocol protocol = new CommitProtocol(table, wal, scope, options.snapshotProperties());
    int dropped = protocol.clearStaleEntries();
    if (dropped > 0) {
      LOG.warn("Task {} dropped {} stale WAL entries of its previous incarnation", task, dropped);
    }
    return new SinkTask(
        catalog,
        table,
        new BatchFactory(table, options.fileFormat(), loader, task),
        options.recordMapper().resolve(loader),
        options.sealPolicies(),
        protocol,
        collector,
        clock);
  }

  public void execute(Tuple tuple) {
    if (TupleUtils.isTick(tuple)) {
      sealIfDue();
      return;
    }
    OpenBatch open;
    try {
      open = currentBatch();
    } catch (RuntimeException e) {
      LOG.warn("Cannot open a batch for {}; failing the tuple", table.name(), e);
      collector.reportError(e);
      collector.fail(tuple);
      return;
    }
    Record record;
    try {
      record = mapper.map(tuple, open.schema());
    } catch (RuntimeException e) {
      TupleMappingException error = new TupleMappingException(table.name(), tuple, e);
      LOG.error(error.getMessage(), error);
      collector.reportError(error);
      collector.fail(tuple);
      return;
    }
    try {
      open.write(record, tuple);
    } catch (RuntimeException e) {
      batch = null;
      failAll(open.abandon(), e);
      collector.fail(tuple);
      return;
    }
    sealIfDue();
  }

  /** Seals and commits the open batch when a seal policy says so. */
  private void sealIfDue() {
    if (batch == null || batch.isEmpty()) {
      return;
    }
    BatchStats stats = batch.stats(clock.getAsLong());
    for (SealPolicy policy : policies) {
      if (policy.shouldSeal(stats)) {
        sealAndCommit();
        return;
      }
    }
  }

  private void sealAndCommit() {
    OpenBatch sealing = batch;
    batch = null;
    SealedBatch sealed;
    try {
      sealed = sealing.seal();
    } catch (RuntimeException e) {
      failAll(sealing.abandon(), e);
      return;
    }
    CommitOutcome outcome = protocol.commit(sealed.dataFiles());
    if (outcome.landed()) {
      sealed.tuples().forEach(collector::ack);
    } else {
      failAll(sealed.tuples(), outcome.error());
    }
  }

  private OpenBatch currentBatch() {
    if (batch == null) {
      // Every batch is written against fresh metadata, so schema changes made outside are seen.
      table.refresh();
      batch = batches.open(clock.getAsLong());
    }
    return batch;
  }

  private void failAll(List<Tuple> tuples, Exception cause) {
    LOG.warn("Failing {} tuples of a batch for {}", tuples.size(), table.name(), cause);
    if (cause != null) {
      collector.reportError(cause);
    }
    tuples.forEach(collector::fail);
  }

  /** Abandons the open batch (its tuples time out and replay) and closes the catalog. */
  @Override
  public void close() {
    if (batch != null) {
      batch.abandon();
      batch = null;
    }
    if (catalog instanceof Closeable) {
      try {
        ((Closeable) catalog).close();
      } catch (IOException e) {
        LOG.warn("Cannot close catalog of {}", table.name(), e);
      }
    }
  }
}
