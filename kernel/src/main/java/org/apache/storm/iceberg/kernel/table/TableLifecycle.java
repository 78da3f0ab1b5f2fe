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

package org.apache.storm.iceberg.kernel.table;

import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.kernel.commit.TableGoneErrors;
import org.apache.storm.iceberg.kernel.metrics.SinkMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.storm.iceberg.kernel.options.SinkSettings;
import org.apache.storm.iceberg.TableDroppedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whether an error the table reported means it is no longer the table this task opened: it
 * was dropped, or dropped and recreated under the same name (another table UUID).
 *
 * <p>Catalogs say so differently. Iceberg 1.11's JdbcCatalog refresh throws {@link
 * NoSuchTableException} ("dropped by another process"); HadoopCatalog's throws a {@link
 * ValidationException} ("Metadata file for version N is missing", its directory is gone); a REST
 * catalog answers 404 ({@code NoSuchTableException}). When the name holds another table,
 * {@code BaseMetastoreTableOperations}, {@code HadoopTableOperations} and {@code
 * RESTTableOperations} refuse the refreshed metadata with an {@link IllegalStateException}
 * "Table UUID does not match: current=X != refreshed=Y", and keep the old metadata, so every later
 * refresh and commit of this {@code Table} fails the same way. Only errors of those kinds are looked
 * into, by loading the table by name: no table means dropped, another UUID means recreated. Any
 * other error, or a catalog that cannot answer, is left as it was (the catalog may merely be down).
 *
 * <p>A recreated table is refused, not reloaded: see {@link TableDroppedException#recreated}.
 */
public final class TableLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(TableLifecycle.class);

  private final Catalog catalog;
  private final String catalogName;
  private final TableIdentifier identifier;
  private final String openedUuid;
  private final SinkMetrics metrics;
  /** What the last warning said, so a table found gone at every tuple is logged once per change. */
  private String lastWarned;

  TableLifecycle(Catalog catalog, String catalogName, TableIdentifier identifier, String openedUuid, SinkMetrics metrics) {
    this.catalog = catalog;
    this.metrics = metrics;
    this.catalogName = catalogName;
    this.identifier = identifier;
    this.openedUuid = openedUuid;
  }

  /** The lifecycle of the table a task opened at prepare. */
  public static TableLifecycle of(OpenedTable opened, SinkSettings.CatalogTarget target, SinkMetrics metrics) {
    return new TableLifecycle(
        opened.catalog(), target.catalogName(), target.tableIdentifier(), opened.table().uuid().toString(), metrics);
  }

  /**
   * What to report for {@code error}: the {@link TableDroppedException} it means, counted in {@code
   * iceberg-table-dropped}, or {@code error} itself.
   */
  public Exception reportable(Exception error) {
    TableDroppedException gone = explain(error);
    if (gone == null) {
      return error;
    }
    metrics.tableDropped();
    return gone;
  }

  /**
   * Refreshes {@code table} and refuses it when the name now holds another table. The UUID is
   * checked here too because catalogs built on {@code BaseMetastoreTableOperations} (JDBC, Hive,
   * Glue) forget their metadata when a refresh finds the table dropped, and then load whatever
   * table the name holds next without Iceberg's own UUID check.
   *
   * @throws TableDroppedException when the table was recreated
   */
  public void refresh(Table table) {
    table.refresh();
    String uuid = currentUuid(table);
    if (uuid == null) {
      throw dropped(null);
    }
    if (!uuid.equals(openedUuid)) {
      throw recreated(uuid, null);
    }
  }

  /** The refreshed table's UUID, or null when its operations hold no metadata (JDBC, once it saw the table dropped). */
  private static String currentUuid(Table table) {
    if (table instanceof HasTableOperations) {
      TableMetadata current = ((HasTableOperations) table).operations().current();
      return current == null ? null : current.uuid();
    }
    return table.uuid().toString();
  }

  /**
   * What to report instead of {@code error}: a {@link TableDroppedException} (caused by {@code
   * error}) when the table was dropped or recreated since the task opened it, else null. May ask the
   * catalog once.
   */
  TableDroppedException explain(Throwable error) {
    if (error instanceof TableDroppedException) {
      return (TableDroppedException) error;
    }
    if (error == null || !mayMeanGone(error)) {
      return null;
    }
    String currentUuid;
    try {
      currentUuid = catalog.loadTable(identifier).uuid().toString();
    } catch (NoSuchTableException e) {
      return dropped(error);
    } catch (RuntimeException e) {
      // The catalog cannot answer now: go by what the error itself says.
      LOG.debug("Cannot load {} to tell whether it was dropped", identifier, Redaction.of(e));
      return evident(error);
    }
    if (currentUuid.equals(openedUuid)) {
      lastWarned = null;
      return null;
    }
    return recreated(currentUuid, error);
  }

  private TableDroppedException evident(Throwable error) {
    for (Throwable t : TableGoneErrors.chain(error)) {
      Matcher mismatch = TableGoneErrors.uuidMismatch(t);
      if (mismatch != null) {
        return recreated(mismatch.group(2), error);
      }
      if (t instanceof NoSuchTableException) {
        return dropped(error);
      }
    }
    return null;
  }

  private TableDroppedException dropped(Throwable error) {
    if (warnOnce("dropped")) {
      LOG.warn("Table {} (UUID {}) was dropped while the topology ran; failing its batches until it is back", identifier, openedUuid);
    }
    return TableDroppedException.dropped(identifier.toString(), catalogName, openedUuid, error);
  }

  private TableDroppedException recreated(String currentUuid, Throwable error) {
    if (warnOnce("recreated as " + currentUuid)) {
      LOG.warn(
        "Table {} was dropped and recreated while the topology ran: opened UUID {}, now UUID {};"
            + " refusing to write into the new table until the topology restarts",
        identifier,
        openedUuid,
        currentUuid);
    }
    return TableDroppedException.recreated(identifier.toString(), catalogName, openedUuid, currentUuid, error);
  }

  private boolean warnOnce(String state) {
    boolean changed = !state.equals(lastWarned);
    lastWarned = state;
    return changed;
  }

  /** Whether {@code error} is of a kind a dropped or recreated table raises (see the class comment). */
  private static boolean mayMeanGone(Throwable error) {
    for (Throwable t : TableGoneErrors.chain(error)) {
      if (t instanceof NoSuchTableException
          || t instanceof NotFoundException
          || t instanceof ValidationException
          || TableGoneErrors.uuidMismatch(t) != null) {
        return true;
      }
    }
    return false;
  }

}
