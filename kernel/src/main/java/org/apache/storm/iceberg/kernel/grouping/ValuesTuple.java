package org.apache.storm.iceberg.kernel.grouping;

import java.util.List;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.ITuple;

/**
 * The values a grouping is handed, read as a tuple of its stream's fields, so that a {@code
 * RecordMapper} can read them as it reads the sink's tuples. One view is reused for every call of
 * one grouping, which Storm makes from one thread; every view of a stream shares its {@link Fields}
 * object, as the tuples the sink receives do.
 */
final class ValuesTuple implements ITuple {
  private final Fields fields;
  private List<Object> values;

  ValuesTuple(Fields fields) {
    this.fields = fields;
  }

  /** Points the view at {@code values}; returns this view. */
  ValuesTuple of(List<Object> values) {
    this.values = values;
    return this;
  }

  @Override
  public int size() {
    return values.size();
  }

  @Override
  public boolean contains(String field) {
    return fields.contains(field);
  }

  @Override
  public Fields getFields() {
    return fields;
  }

  @Override
  public int fieldIndex(String field) {
    return fields.fieldIndex(field);
  }

  @Override
  public List<Object> select(Fields selector) {
    return fields.select(selector, values);
  }

  @Override
  public Object getValue(int i) {
    return values.get(i);
  }

  @Override
  public String getString(int i) {
    return (String) values.get(i);
  }

  @Override
  public Integer getInteger(int i) {
    return (Integer) values.get(i);
  }

  @Override
  public Long getLong(int i) {
    return (Long) values.get(i);
  }

  @Override
  public Boolean getBoolean(int i) {
    return (Boolean) values.get(i);
  }

  @Override
  public Short getShort(int i) {
    return (Short) values.get(i);
  }

  @Override
  public Byte getByte(int i) {
    return (Byte) values.get(i);
  }

  @Override
  public Double getDouble(int i) {
    return (Double) values.get(i);
  }

  @Override
  public Float getFloat(int i) {
    return (Float) values.get(i);
  }

  @Override
  public byte[] getBinary(int i) {
    return (byte[]) values.get(i);
  }

  @Override
  public Object getValueByField(String field) {
    return values.get(fields.fieldIndex(field));
  }

  @Override
  public String getStringByField(String field) {
    return (String) getValueByField(field);
  }

  @Override
  public Integer getIntegerByField(String field) {
    return (Integer) getValueByField(field);
  }

  @Override
  public Long getLongByField(String field) {
    return (Long) getValueByField(field);
  }

  @Override
  public Boolean getBooleanByField(String field) {
    return (Boolean) getValueByField(field);
  }

  @Override
  public Short getShortByField(String field) {
    return (Short) getValueByField(field);
  }

  @Override
  public Byte getByteByField(String field) {
    return (Byte) getValueByField(field);
  }

  @Override
  public Double getDoubleByField(String field) {
    return (Double) getValueByField(field);
  }

  @Override
  public Float getFloatByField(String field) {
    return (Float) getValueByField(field);
  }

  @Override
  public byte[] getBinaryByField(String field) {
    return (byte[]) getValueByField(field);
  }

  @Override
  public List<Object> getValues() {
    return values;
  }
}
