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

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which catalog properties hold secrets, and which of their values only say where a secret is: the
 * rule the sink, the maintenance bolt and the tools share, so that a secret is masked and resolved
 * alike wherever catalog properties go.
 */
public final class SecretProperties {
  /** The words that make a property name a secret's, as a regular-expression alternation. */
  public static final String SECRET_WORDS = "credential|token|password|passwd|pwd|secret|key|auth|signature|cookie";
  private static final Pattern SECRET_NAME = Pattern.compile("header\\..*|.*(" + SECRET_WORDS + ").*");
  static final String ENV = "env:";
  static final String FILE = "file:";

  private SecretProperties() {}

  /** Whether a property of this name holds a secret: a credential, token, password, key, cookie or header. */
  public static boolean isSecret(String propertyName) {
    return SECRET_NAME.matcher(propertyName.toLowerCase(Locale.ROOT)).matches();
  }

  /** Whether the value of a secret-named property is a reference ({@code env:NAME} or {@code file:/path}). */
  public static boolean isReference(String value) {
    return value != null && (value.startsWith(ENV) || value.startsWith(FILE));
  }
}
