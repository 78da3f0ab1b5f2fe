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

package org.apache.storm.iceberg.mappers;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;

/**
 * Builds a column's {@link Conversion} by visiting its type: the conversions both representations
 * share ({@link ScalarConversions}, lists and maps of converted members) here, and the forms they
 * differ in (dates, times, timestamps, fixed values and structs) in {@link GenericConversions} and
 * {@link InternalConversions}. One visitor builds one column's conversion.
 */
abstract class ConversionVisitor extends PathVisitor<Conversion> {
  private final Map<Integer, List<String>> formerNames;

  /**
   * @param rootPath the column's path, as error messages name it
   * @param formerNames the former names of renamed fields, by field id, for structs to look values up by
   */
  ConversionVisitor(String rootPath, Map<Integer, List<String>> formerNames) {
    super(rootPath);
    this.formerNames = formerNames;
  }

  /** A new, empty struct of {@code type} in this representation, for each struct value. */
  abstract Supplier<StructLike> newStruct(Types.StructType type);

  abstract Conversion date(Type.PrimitiveType type, String path);

  abstract Conversion time(Type.PrimitiveType type, String path);

  abstract Conversion timestamp(Types.TimestampType type, String path);

  abstract Conversion timestampNano(Types.TimestampNanoType type, String path);

  abstract Conversion fixed(Types.FixedType type, String path);

  @Override
  public Conversion struct(Types.StructType type, List<Conversion> fieldConversions) {
    List<Types.NestedField> fields = type.fields();
    String[] fieldPaths = new String[fields.size()];
    String[][] fieldFormerNames = new String[fields.size()][];
    for (int pos = 0; pos < fields.size(); pos++) {
      fieldPaths[pos] = pathOf(fields.get(pos).name());
      List<String> names = formerNames.get(fields.get(pos).fieldId());
      fieldFormerNames[pos] = names == null ? null : names.toArray(new String[0]);
    }
    return new NestedValues.StructConversion(
        type, path(), fieldPaths, fieldFormerNames, fieldConversions.toArray(new Conversion[0]), newStruct(type));
  }

  @Override
  public Conversion list(Types.ListType type, Conversion element) {
    return new NestedValues.ListConversion(type, path(), element);
  }

  @Override
  public Conversion map(Types.MapType type, Conversion key, Conversion value) {
    return new NestedValues.MapConversion(type, path(), key, value);
  }

  @Override
  public Conversion variant(Types.VariantType type) {
    return VariantValues.conversion(type, path());
  }

  @Override
  public Conversion primitive(Type.PrimitiveType type) {
    String path = path();
    switch (type.typeId()) {
      case DATE:
        return date(type, path);
      case TIME:
        return time(type, path);
      case TIMESTAMP:
        return timestamp((Types.TimestampType) type, path);
      case TIMESTAMP_NANO:
        return timestampNano((Types.TimestampNanoType) type, path);
      case FIXED:
        return fixed((Types.FixedType) type, path);
      case UNKNOWN:
        return value -> {
          throw IcebergValues.mismatch(path, type, value, "a column of type unknown holds nulls only");
        };
      default:
        Conversion shared = ScalarConversions.of(type, path);
        return shared != null ? shared : ScalarConversions.refusing(type, path);
    }
  }
}
