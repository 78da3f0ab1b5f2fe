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

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * A visitor of one Iceberg type that knows the dotted path of the type it is at, as error messages
 * name it: the root's path, then each field's name; list elements, map keys and map values are the
 * fields {@code element}, {@code key} and {@code value} (for example {@code tags.element}).
 *
 * @param <T> what it builds for each type
 */
abstract class PathVisitor<T> extends TypeUtil.SchemaVisitor<T> {
  private final List<String> names = new ArrayList<>();

  /** @param rootPath the path of the visited type, or null for a root struct whose fields are top-level columns */
  PathVisitor(String rootPath) {
    if (rootPath != null) {
      names.add(rootPath);
    }
  }

  /** Visits {@code type}; call once. */
  final T build(Type type) {
    return TypeUtil.visit(type, this);
  }

  @Override
  public void beforeField(Types.NestedField field) {
    names.add(field.name());
  }

  @Override
  public void afterField(Types.NestedField field) {
    names.remove(names.size() - 1);
  }

  /** A field is what its type builds (Iceberg's default drops it). */
  @Override
  public T field(Types.NestedField field, T fieldResult) {
    return fieldResult;
  }

  /** The path of the type being visited (after its fields, elements, keys and values were). */
  final String path() {
    return String.join(".", names);
  }

  /** The path of the member {@code name} of the type being visited. */
  final String pathOf(String name) {
    return names.isEmpty() ? name : path() + "." + name;
  }
}
