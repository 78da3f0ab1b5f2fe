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
import org.apache.iceberg.types.Type;
import org.apache.storm.iceberg.spi.InternalRow;
import org.apache.storm.iceberg.spi.RecordMappingException;

/**
 * Converts Java values to Iceberg's generic or internal representation of a column type,
 * recursively for structs, lists and maps. Conversions never lose information: a value that does
 * not fit the type exactly is an error naming the column path, the expected type and the value's
 * class. (Digits below a microsecond are Iceberg's exception: its time and timestamp types hold
 * microseconds, and its writers drop the rest.) Timestamps with a zone accept epoch
 * <b>milliseconds</b> as a {@code Long}; that is the one numeric timestamp unit (dates accept
 * epoch days).
 *
 * <p>A column's {@link Conversion} is built once, by visiting its type (one visitor per
 * representation), and then applied to every value of that column. The two
 * representations accept and refuse the same values with the same messages; they differ only in the
 * Java form of dates, times, timestamps, fixed values and structs (see {@link InternalRow}).
 */
public final class IcebergValues {
  private IcebergValues() {}

  /**
   * One column's conversion to one representation, built for its type and path. It keeps no state
   * that changes its results, so threads may share one.
   */
  @FunctionalInterface
  public interface Conversion {
    /**
     * The value in the column's representation.
     *
     * @param value not null: null handling (optional or required) is the caller's
     * @throws RecordMappingException naming the column path, when the value does not fit the type
     */
    Object apply(Object value);
  }

  /** {@code value} in Iceberg's generic representation: what its generic writers use ({@code Record}s). */
  public static Object convert(Type type, Object value, String path) {
    return value == null ? null : conversion(type, path).apply(value);
  }

  /** {@code value} in Iceberg's internal representation ({@link InternalRow}). */
  public static Object convertInternal(Type type, Object value, String path) {
    return value == null ? null : internalConversion(type, path).apply(value);
  }

  /** {@link #convert} for the values of one column, built once. */
  public static Conversion conversion(Type type, String path) {
    return conversion(type, path, Map.of());
  }

  /** {@link #convertInternal} for the values of one column, built once. */
  public static Conversion internalConversion(Type type, String path) {
    return internalConversion(type, path, Map.of());
  }

  /**
   * {@link #conversion(Type, String)} whose nested structs also take a field's value from a map key
   * that carries one of its former names ({@code formerNames}, by field id, as {@link
   * org.apache.storm.iceberg.spi.FormerNamesSchema#formerNamesById} gives them), when no key
   * carries its current name.
   */
  public static Conversion conversion(Type type, String path, Map<Integer, List<String>> formerNames) {
    return new GenericConversions(path, formerNames).build(type);
  }

  /** {@link #internalConversion(Type, String)} with former names, as {@link #conversion(Type, String, Map)}. */
  public static Conversion internalConversion(Type type, String path, Map<Integer, List<String>> formerNames) {
    return new InternalConversions(path, formerNames).build(type);
  }

  static RecordMappingException mismatch(String path, Type type, Object value, String detail) {
    return new RecordMappingException(
        path,
        "column '" + path + "' expects " + type + " but got " + value.getClass().getName()
            + (detail == null ? "" : ": " + detail));
  }
}
