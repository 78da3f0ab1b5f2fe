package org.apache.storm.iceberg.kernel.grouping;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.storm.iceberg.kernel.options.SinkSettings.CatalogTarget;
import org.apache.storm.iceberg.kernel.secrets.Redaction;
import org.apache.storm.iceberg.kernel.table.OpenedTable;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the sink's table from an upstream task: loads it when the grouping is prepared, then
 * refreshes it once per interval, on a shared daemon thread so that the emitting thread never waits
 * for the catalog. A refresh that finds another spec or schema publishes a new {@link
 * PartitionHasher}; the emitting thread picks it up at its next tuple. So a spec change reaches the
 * grouping at most one interval and one catalog round trip after it is committed (counted from the
 * first tuple after the interval).
 *
 * <p>Until the table can be loaded (the sink may still be creating it, or the catalog is down), and
 * while it is unpartitioned, there is no hasher. A refresh that fails keeps the hasher it had and
 * loads the table by name at the next interval, so a table dropped and recreated is followed too.
 * The catalog is kept open for the refreshes: a grouping has no close hook, and a worker's catalogs
 * go with its process.
 */
final class TableFollower {
  private static final Logger LOG = LoggerFactory.getLogger(TableFollower.class);
  /** One thread refreshes for every grouping in this JVM; it ends when idle. */
  private static final ExecutorService REFRESHES = refreshThread();

  private final CatalogTarget target;
  private final RecordMapper mapper;
  private final long intervalNanos;
  private final AtomicBoolean refreshing = new AtomicBoolean();
  private volatile PartitionHasher hasher;
  private volatile long nextRefreshNanos;
  // Touched by one refresh at a time (the first on the preparing thread, then on REFRESHES).
  private Catalog catalog;
  private Table table;
  private String followed = "";
  private String lastWarning;

  TableFollower(CatalogTarget target, RecordMapper mapper, long intervalMillis) {
    this.target = target;
    this.mapper = mapper;
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
  }

  /** Loads the table now, on the calling thread. */
  void start() {
    refreshing.set(true);
    refresh();
  }

  /** The hasher for the table's spec as last seen, or null; starts a refresh when one is due. */
  PartitionHasher hasher() {
    if (System.nanoTime() - nextRefreshNanos >= 0 && refreshing.compareAndSet(false, true)) {
      REFRESHES.execute(this::refresh);
    }
    return hasher;
  }

  private void refresh() {
    try {
      if (catalog == null) {
        catalog = OpenedTable.loadCatalog(target);
      }
      if (table == null) {
        table = catalog.loadTable(target.tableIdentifier());
      } else {
        table.refresh();
      }
      follow(table);
      lastWarning = null;
    } catch (RuntimeException e) {
      table = null;
      warnOnce(e);
    } finally {
      nextRefreshNanos = System.nanoTime() + intervalNanos;
      refreshing.set(false);
    }
  }

  /** Publishes a new hasher when the spec, the schema or its history changed. */
  private void follow(Table current) {
    String seen = current.spec().specId() + "/" + current.schema().schemaId() + "/" + current.schemas().size();
    if (seen.equals(followed)) {
      return;
    }
    hasher = PartitionHasher.of(current, mapper);
    if (hasher == null) {
      LOG.info("Table {} is unpartitioned: the grouping spreads tuples over the sink's tasks in turn", target.table());
    } else {
      LOG.info("Grouping tuples by the partition of {} under spec {}: {}", target.table(), current.spec().specId(), current.spec());
    }
    followed = seen;
  }

  private static ExecutorService refreshThread() {
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), runnable -> {
          Thread thread = new Thread(runnable, "iceberg-grouping-refresh");
          thread.setDaemon(true);
          return thread;
        });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  private void warnOnce(RuntimeException e) {
    String warning = e.getClass().getName() + ": " + e.getMessage();
    if (!warning.equals(lastWarning)) {
      LOG.warn("Cannot load {} to group tuples by its partition; keeping the grouping it had (tuples spread in turn"
          + " until the table has been loaded once), trying again in {} ms", target.table(),
          TimeUnit.NANOSECONDS.toMillis(intervalNanos), Redaction.of(e));
      lastWarning = warning;
    }
  }
}
