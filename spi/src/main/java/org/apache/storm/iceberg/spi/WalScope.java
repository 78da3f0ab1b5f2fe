package org.apache.storm.iceberg.spi;

import java.util.Objects;
import org.apache.iceberg.Table;

/**
 * Whose WAL entries a {@link WalStore} call is about: one committing task of one component of one
 * topology, writing one table under one WAL namespace. The topology is identified by its name, not
 * its id, so a resubmitted topology finds what its previous incarnation left.
 */
public final class WalScope {
  private final Table table;
  private final String namespace;
  private final String topology;
  private final String component;
  private final int taskIndex;

  public WalScope(Table table, String namespace, String topology, String component, int taskIndex) {
    this.table = Objects.requireNonNull(table, "table");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.topology = Objects.requireNonNull(topology, "topology");
    this.component = Objects.requireNonNull(component, "component");
    this.taskIndex = taskIndex;
  }

  public Table table() {
    return table;
  }

  public String namespace() {
    return namespace;
  }

  public String topology() {
    return topology;
  }

  public String component() {
    return component;
  }

  public int taskIndex() {
    return taskIndex;
  }

  @Override
  public String toString() {
    return table.name() + "/" + namespace + "/" + topology + "/" + component + "/" + taskIndex;
  }
}
