package org.apache.storm.iceberg.spi;

import java.util.List;

/**
 * Keeps the commit entries of the write-ahead log: put before an append, deleted after it.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@link #put} is durable when it returns; it returns the entry's location.
 *   <li>{@link #list} returns every entry put in {@code scope} and not yet deleted, and nothing from
 *       any other scope.
 *   <li>{@link #delete} of an entry that does not exist is not an error.
 *   <li>Failures surface as unchecked exceptions that name the location involved.
 * </ul>
 */
public interface WalStore {
  /**
   * Checks, when a committing task starts, that this store can keep entries for the scope's table;
   * throws {@link IllegalStateException} saying what to use instead when it cannot.
   */
  default void validate(WalScope scope) {}

  String put(WalScope scope, String commitId, byte[] payload);

  List<WalEntry> list(WalScope scope);

  void delete(WalScope scope, String commitId);

  /**
   * Every entry kept for {@code table}, whatever its namespace, topology, component or task: for
   * operators' tools, not for the commit path. Each location names the scope it belongs to.
   */
  default List<WalEntry> listAll(org.apache.iceberg.Table table) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot list all entries of a table");
  }
}
