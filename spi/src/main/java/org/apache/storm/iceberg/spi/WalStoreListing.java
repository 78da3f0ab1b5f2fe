package org.apache.storm.iceberg.spi;

import java.util.List;
import org.apache.iceberg.Table;

/**
 * A {@link WalStore} that can list every entry it keeps for a table, for operators' tools (the
 * inspect tool shows what crashed tasks left); never used on the commit path.
 */
public interface WalStoreListing {
  /**
   * Every entry kept for {@code table}, whatever its namespace, topology, component or task. Each
   * location names the scope it belongs to.
   */
  List<WalEntry> listAll(Table table);
}
