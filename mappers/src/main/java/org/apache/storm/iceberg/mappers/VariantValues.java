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

import static org.apache.storm.iceberg.mappers.IcebergValues.mismatch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.variants.ShreddedObject;
import org.apache.iceberg.variants.ValueArray;
import org.apache.iceberg.variants.Variant;
import org.apache.iceberg.variants.VariantMetadata;
import org.apache.iceberg.variants.VariantValue;
import org.apache.iceberg.variants.Variants;
import org.apache.storm.iceberg.mappers.IcebergValues.Conversion;

/**
 * Variant values, built with Iceberg's own variant API (Iceberg 1.11 has no JSON reader for them):
 * from a JSON string, a Jackson node, or a tree of {@code Map}s (string keys), {@code List}s,
 * strings, booleans, numbers and nulls. Both representations hold a {@link Variant}. Numbers keep
 * their kind: integers as int or long, decimals up to 38 digits as decimals, others as doubles.
 */
final class VariantValues {
  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private static final int MAX_DECIMAL_DIGITS = 38;

  private VariantValues() {}

  static Conversion conversion(Type type, String path) {
    return value -> {
      if (value instanceof Variant variant) {
        return variant;
      }
      Object tree;
      if (value instanceof CharSequence json) {
        try {
          tree = JSON.readValue(json.toString(), Object.class);
        } catch (JsonProcessingException e) {
          throw mismatch(path, type, value, "not JSON (" + e.getOriginalMessage() + ")");
        }
      } else if (value instanceof JsonNode node) {
        tree = JSON.convertValue(node, Object.class);
      } else if (value instanceof Map || value instanceof List) {
        tree = value;
      } else {
        throw mismatch(path, type, value, "a variant is given as JSON text, a Jackson node, or a Map/List tree");
      }
      Set<String> names = new TreeSet<>();
      collectNames(tree, names, type, path);
      VariantMetadata metadata = Variants.metadata(names);
      return Variant.of(metadata, toValue(metadata, tree, type, path));
    };
  }

  /** Every object key at every depth: the metadata dictionary, sorted and without duplicates as the spec wants. */
  private static void collectNames(Object node, Set<String> names, Type type, String path) {
    if (node instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String key)) {
          throw mismatch(path, type, map, "variant object keys are strings, not " + entry.getKey().getClass().getName());
        }
        names.add(key);
        collectNames(entry.getValue(), names, type, path);
      }
    } else if (node instanceof List<?> list) {
      list.forEach(element -> collectNames(element, names, type, path));
    }
  }

  private static VariantValue toValue(VariantMetadata metadata, Object node, Type type, String path) {
    if (node == null) {
      return Variants.ofNull();
    }
    if (node instanceof String text) {
      return Variants.of(text);
    }
    if (node instanceof Boolean bool) {
      return Variants.of((boolean) bool);
    }
    if (node instanceof Integer || node instanceof Short || node instanceof Byte) {
      return Variants.of(((Number) node).intValue());
    }
    if (node instanceof Long number) {
      return Variants.of((long) number);
    }
    if (node instanceof Double || node instanceof Float) {
      return Variants.of(((Number) node).doubleValue());
    }
    if (node instanceof BigInteger || node instanceof BigDecimal) {
      BigDecimal decimal = node instanceof BigInteger integer ? new BigDecimal(integer) : (BigDecimal) node;
      // Jackson reads 1e5 with scale -5; a variant decimal's scale is not negative.
      decimal = decimal.scale() < 0 ? decimal.setScale(0) : decimal;
      return decimal.precision() > MAX_DECIMAL_DIGITS || decimal.scale() > MAX_DECIMAL_DIGITS
          ? Variants.of(decimal.doubleValue()) : Variants.of(decimal);
    }
    if (node instanceof Map<?, ?> map) {
      ShreddedObject object = Variants.object(metadata);
      map.forEach((key, member) -> object.put((String) key, toValue(metadata, member, type, path)));
      return object;
    }
    if (node instanceof List<?> list) {
      ValueArray array = Variants.array();
      list.forEach(element -> array.add(toValue(metadata, element, type, path)));
      return array;
    }
    throw mismatch(path, type, node, "a variant holds maps, lists, strings, booleans, numbers and nulls");
  }
}
