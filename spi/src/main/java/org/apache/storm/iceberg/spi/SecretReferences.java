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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Secret-named catalog properties ({@link SecretProperties#isSecret}) whose value says where the secret is
 * rather than what it is, resolved on the worker when the task builds its catalog:
 *
 * <ul>
 *   <li>{@code env:NAME}: the worker's environment variable {@code NAME};
 *   <li>{@code file:/path} (or {@code file:///path}): the file's content, less its trailing newline.
 * </ul>
 *
 * <p>The secret itself is then never in the topology Nimbus stores, nor on a command line. Other
 * properties stay literal, whatever they start with ({@code warehouse=file:/data} is a path). A
 * reference's form is checked at {@code build()}; one that cannot be resolved fails at prepare
 * with a message naming the property and the variable or file, never a value.
 */
public final class SecretReferences {
  private static final String ENV = SecretProperties.ENV;
  private static final String FILE = SecretProperties.FILE;
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern TRAILING_NEWLINES = Pattern.compile("[\r\n]+$");

  private SecretReferences() {}

  static boolean isReference(String value) {
    return SecretProperties.isReference(value);
  }

  /** Checks the form of every reference, on the submitting client. */
  public static void validate(Map<String, String> catalogProperties) {
    catalogProperties.forEach(
        (key, value) -> {
          if (SecretProperties.isSecret(key) && isReference(value)) {
            target(key, value);
          }
        });
  }

  /** The properties with every reference replaced by the secret it names, as this worker sees it. */
  public static Map<String, String> resolve(Map<String, String> catalogProperties) {
    return resolve(catalogProperties, System::getenv);
  }

  public static Map<String, String> resolve(Map<String, String> catalogProperties, UnaryOperator<String> environment) {
    Map<String, String> resolved = new LinkedHashMap<>(catalogProperties);
    resolved.replaceAll(
        (key, value) -> SecretProperties.isSecret(key) && isReference(value) ? read(key, value, environment) : value);
    return resolved;
  }

  private static String read(String property, String reference, UnaryOperator<String> environment) {
    String target = target(property, reference);
    if (reference.startsWith(ENV)) {
      String value = environment.apply(target);
      if (value == null || value.isEmpty()) {
        throw unresolved(property, "environment variable " + target, value == null ? "is not set" : "is empty",
            "set it in the environment the supervisor starts workers with");
      }
      return value;
    }
    Path file = Path.of(target);
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      // The exception's class only: its message could quote what it read.
      throw unresolved(property, "file " + file, "cannot be read (" + e.getClass().getSimpleName() + ")",
          "make it readable by the worker's user on every supervisor host");
    }
    String secret = TRAILING_NEWLINES.matcher(content).replaceAll("");
    if (secret.isEmpty()) {
      throw unresolved(property, "file " + file, "is empty", "write the secret into it");
    }
    return secret;
  }

  private static IllegalStateException unresolved(String property, String what, String problem, String fix) {
    return new IllegalStateException(
        "Catalog property '" + property + "' refers to " + what + ", which " + problem + " on this worker; " + fix);
  }

  /** The variable name or file path a reference names, or why its form is wrong. */
  private static String target(String property, String reference) {
    if (reference.startsWith(ENV)) {
      String name = reference.substring(ENV.length());
      if (!ENV_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "Catalog property '" + property + "' starts with env: but names no environment variable after it"
                + " (the value is not shown: it may be the secret itself); write env:NAME, for example"
                + " env:ICEBERG_CATALOG_PASSWORD");
      }
      return name;
    }
    String path = reference.substring(FILE.length());
    if (path.startsWith("///")) {
      path = path.substring(2);
    }
    if (!path.startsWith("/") || path.startsWith("//")) {
      throw new IllegalArgumentException(
          "Catalog property '" + property + "' starts with file: but names no absolute local path after it"
              + " (the value is not shown: it may be the secret itself); write file:/path, for example"
              + " file:/run/secrets/catalog-password");
    }
    return path;
  }
}
