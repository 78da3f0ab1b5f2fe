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

package org.apache.storm.iceberg.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * A table's current schema as the kernel hands it to a {@link RecordMapper}: the same columns, ids
 * and schema id, plus the names its fields had in the table's earlier schemas. Iceberg keeps a
 * field's id across renames, so a value a producer still sends under a former name belongs to the
 * renamed field.
 *
 * <p>A former name is a field's own name (not its path) in an earlier schema that it no longer
 * carries and that no other field of its struct carries now: a current name always wins. Top-level
 * columns and fields nested in structs have them alike.
 *
 * <p>Iceberg's own aliases ({@link #aliasToId}, full names such as {@code "address.town"}) hold one
 * name per field, so they carry each field's most recent former full name; {@link #formerNames(int)}
 * carries every former name. Built once per schema, never per record; immutable.
 */
public final class FormerNamesSchema extends Schema {
  private static final long serialVersionUID = 1L;

  private final Map<Integer, List<String>> formerNamesById;

  private FormerNamesSchema(Schema current, Map<Integer, List<String>> formerNamesById, Map<String, Integer> aliases) {
    super(current.schemaId(), current.columns(), aliases, current.identifierFieldIds());
    Map<Integer, List<String>> copy = new HashMap<>();
    formerNamesById.forEach((id, names) -> copy.put(id, List.copyOf(names)));
    this.formerNamesById = Map.copyOf(copy);
  }

  /**
   * {@code current} with the former names its fields carry in {@code schemas} (a table's {@code
   * schemas().values()}; {@code current} among them or not).
   */
  public static FormerNamesSchema of(Schema current, Iterable<Schema> schemas) {
    List<Schema> newestFirst = new ArrayList<>();
    schemas.forEach(newestFirst::add);
    newestFirst.sort(Comparator.comparingInt(Schema::schemaId).reversed());
    Map<Integer, Types.NestedField> liveFields = TypeUtil.indexById(current.asStruct());
    Map<Integer, Set<String>> siblingNames = siblingNames(current.asStruct());
    Map<Integer, List<String>> formerNamesById = new HashMap<>();
    Map<String, Integer> aliases = new HashMap<>();
    Map<String, Integer> currentFullNames = TypeUtil.indexByName(current.asStruct());
    for (Schema earlier : newestFirst) {
      TypeUtil.indexById(earlier.asStruct())
          .forEach(
              (id, field) -> {
                Types.NestedField live = liveFields.get(id);
                if (live == null || !siblingNames.containsKey(id) || siblingNames.get(id).contains(field.name())) {
                  return;
                }
                List<String> names = formerNamesById.computeIfAbsent(id, i -> new ArrayList<>());
                if (!names.contains(field.name())) {
                  names.add(field.name());
                }
              });
      TypeUtil.indexByName(earlier.asStruct())
          .forEach(
              (fullName, id) -> {
                if (formerNamesById.containsKey(id) && !currentFullNames.containsKey(fullName)) {
                  aliases.putIfAbsent(fullName, id);
                }
              });
    }
    return new FormerNamesSchema(current, formerNamesById, oneAliasPerField(aliases, newestFirst));
  }

  /**
   * The former names of field {@code fieldId} (its own name, not its path), most recent first;
   * empty when it has none.
   */
  public List<String> formerNames(int fieldId) {
    return formerNamesById.getOrDefault(fieldId, List.of());
  }

  /**
   * Every field's former names, by field id ({@link #formerNames(int)}); empty for a schema that is
   * not a {@code FormerNamesSchema}.
   */
  public static Map<Integer, List<String>> formerNamesById(Schema schema) {
    return schema instanceof FormerNamesSchema withHistory ? withHistory.formerNamesById : Map.of();
  }

  /**
   * For every field of a struct (top-level or nested; list elements and map keys and values have
   * fixed names), the names of its struct's fields, itself included.
   */
  private static Map<Integer, Set<String>> siblingNames(Types.StructType root) {
    Map<Integer, Set<String>> siblings = new HashMap<>();
    List<Type> structs = new ArrayList<>(List.of(root));
    TypeUtil.indexById(root).values().forEach(field -> structs.add(field.type()));
    for (Type type : structs) {
      if (type.isStructType()) {
        Set<String> names = new HashSet<>();
        type.asStructType().fields().forEach(field -> names.add(field.name()));
        type.asStructType().fields().forEach(field -> siblings.put(field.fieldId(), names));
      }
    }
    return siblings;
  }

  /**
   * Iceberg's aliases map names to ids one to one: of each field's former full names, keep the one
   * from the newest schema that has one.
   */
  private static Map<String, Integer> oneAliasPerField(Map<String, Integer> candidates, List<Schema> newestFirst) {
    Map<String, Integer> aliases = new HashMap<>();
    Set<Integer> aliased = new HashSet<>();
    for (Schema earlier : newestFirst) {
      TypeUtil.indexByName(earlier.asStruct())
          .forEach(
              (fullName, id) -> {
                if (id.equals(candidates.get(fullName)) && aliased.add(id)) {
                  aliases.put(fullName, id);
                }
              });
    }
    return aliases;
  }
}
