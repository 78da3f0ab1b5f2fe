package org.apache.storm.iceberg.mappers;

import java.util.Map;
import org.apache.storm.iceberg.spi.contract.ContractTuples;
import org.apache.storm.iceberg.spi.contract.RecordMapperContractTest;
import org.apache.storm.tuple.ITuple;

class FieldNameRecordMapperContractTest extends RecordMapperContractTest {
  @Override
  protected String providerName() {
    return FieldNameRecordMapperFactory.NAME;
  }

  /** One tuple field per column, named like it. */
  @Override
  protected ITuple tupleOf(Map<String, Object> values) {
    return ContractTuples.of(values);
  }
}
