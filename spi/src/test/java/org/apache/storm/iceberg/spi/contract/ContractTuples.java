package org.apache.storm.iceberg.spi.contract;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.ITuple;
import org.apache.storm.tuple.TupleImpl;

/** Real Storm tuples from one source component, for mapper contract tests. */
public final class ContractTuples {
  private ContractTuples() {}

  /** A tuple whose fields are the map's keys, in its iteration order, holding its values. */
  public static ITuple of(Map<String, Object> values) {
    Fields fields = new Fields(new ArrayList<>(values.keySet()));
    GeneralTopologyContext context = new GeneralTopologyContext(
        new StormTopology(), new HashMap<>(), Map.of(1, "source"), Map.of("source", List.of(1)),
        Map.of("source", Map.of("default", fields)), "contract-1");
    return new TupleImpl(context, new ArrayList<>(values.values()), "source", 1, "default");
  }
}
