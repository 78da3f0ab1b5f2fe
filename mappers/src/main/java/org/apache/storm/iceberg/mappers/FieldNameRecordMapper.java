package org.apache.storm.iceberg.mappers;

import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.tuple.ITuple;

/**
 * The default mapper ({@code "field-name"}): each top-level column takes the tuple field of the same
 * name, converted by {@link IcebergValues}. Tuple fields with no column are ignored. A column with no
 * tuple field, or a null value, becomes null when the column is optional and is an error when it is
 * required.
 */
public class FieldNameRecordMapper implements RecordMapper {
  private static final long serialVersionUID = 1L;

  public FieldNameRecordMapper() {}

  @Override
  public Record map(ITuple tuple, Schema schema) {
    GenericRecord record = GenericRecord.create(schema);
    List<Types.NestedField> columns = schema.columns();
    for (int pos = 0; pos < columns.size(); pos++) {
      Types.NestedField column = columns.get(pos);
      Object value = tuple.contains(column.name()) ? tuple.getValueByField(column.name()) : null;
      if (value == null) {
        if (column.isRequired()) {
          throw new RecordMappingException(
              column.name(),
              "required column '"
                  + column.name()
                  + "' ("
                  + column.type()
                  + ") has no value");
        }
        continue;
      }
      record.set(pos, IcebergValues.convert(column.type(), value, column.name()));
    }
    return record;
  }
}
