package org.apache.storm.iceberg.mappers;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.iceberg.spi.contract.ContractTuples;
import org.apache.storm.iceberg.spi.contract.RecordMapperContractTest;
import org.apache.storm.tuple.ITuple;

class JsonRecordMapperContractTest extends RecordMapperContractTest {
  @Override
  protected String providerName() {
    return JsonRecordMapperFactory.NAME;
  }

  /** One JSON document in field {@code value}: numbers as numbers, everything else as ISO text. */
  @Override
  protected ITuple tupleOf(Map<String, Object> values) {
    StringBuilder json = new StringBuilder("{");
    values.forEach((name, value) -> {
      if (json.length() > 1) {
        json.append(", ");
      }
      json.append('"').append(name).append("\": ");
      if (value == null || value instanceof Number) {
        json.append(value);
      } else {
        json.append('"').append(value).append('"');
      }
    });
    Map<String, Object> tuple = new LinkedHashMap<>();
    tuple.put(JsonRecordMapperFactory.DEFAULT_FIELD, json.append('}').toString());
    return ContractTuples.of(tuple);
  }
}
