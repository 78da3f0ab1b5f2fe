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

package org.apache.storm.iceberg.kernel.route;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A table name with placeholders, such as {@code db.events_{type}}: each {@code {name}} is replaced
 * by a value looked up by that name. Braces, not {@code ${...}}, because Flux substitutes {@code
 * ${...}} in its YAML itself.
 */
final class RouteTemplate implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String text;
  /** Literal text at even indexes, placeholder names at odd ones. */
  private final List<String> parts;

  private RouteTemplate(String text, List<String> parts) {
    this.text = text;
    this.parts = parts;
  }

  /**
   * @param property the property the template came from, for messages
   * @throws IllegalArgumentException when a brace is unclosed, empty or nested
   */
  static RouteTemplate parse(String provider, String property, String text) {
    if (text.contains("${")) {
      throw malformed(provider, property, text, "a '${', which Flux replaces with its own properties");
    }
    List<String> parts = new ArrayList<>();
    int at = 0;
    while (true) {
      int open = text.indexOf('{', at);
      int close = text.indexOf('}', at);
      if (open < 0) {
        if (close >= 0) {
          throw malformed(provider, property, text, "a '}' without its '{'");
        }
        parts.add(text.substring(at));
        return new RouteTemplate(text, List.copyOf(parts));
      }
      int end = text.indexOf('}', open);
      if (close >= 0 && close < open || end < 0) {
        throw malformed(provider, property, text, "an unclosed '{'");
      }
      String name = text.substring(open + 1, end);
      if (name.isBlank() || name.contains("{")) {
        throw malformed(provider, property, text, "an empty or nested placeholder");
      }
      parts.add(text.substring(at, open));
      parts.add(name);
      at = end + 1;
    }
  }

  private static IllegalArgumentException malformed(String provider, String property, String text, String what) {
    return new IllegalArgumentException(provider + " property '" + property + "' = '" + text + "' has " + what
        + "; write placeholders as {field}, for example db.events_{type}");
  }

  /** The placeholders' names, in order. */
  List<String> names() {
    List<String> names = new ArrayList<>();
    for (int i = 1; i < parts.size(); i += 2) {
      names.add(parts.get(i));
    }
    return names;
  }

  /** Whether the template is one placeholder and nothing else, so its value is the whole name. */
  boolean isWholeName() {
    return parts.size() == 3 && parts.get(0).isEmpty() && parts.get(2).isEmpty();
  }

  /** The name with each placeholder replaced by {@code values.apply(name)}. */
  String fill(Function<String, String> values) {
    StringBuilder name = new StringBuilder(text.length() + 16);
    for (int i = 0; i < parts.size(); i++) {
      name.append(i % 2 == 0 ? parts.get(i) : values.apply(parts.get(i)));
    }
    return name.toString();
  }

  @Override
  public String toString() {
    return text;
  }
}
