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
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets before they reach a log line, a reported error, a message or {@code toString()}.
 *
 * <p>A property is secret when its name contains credential, token, password, passwd, pwd, secret,
 * key, auth, signature or cookie, or starts with {@code header.} (REST headers carry bearer tokens).
 * In any text the sink, the maintenance bolt and the tools log or report, it masks: URI user-info ({@code //user:pass@}), every
 * secret-named query or JDBC parameter ({@code ?password=x}, {@code ;password=x}), and, verbatim,
 * every secret value this JVM's catalogs were built with ({@link #remember}), so a password that
 * Iceberg or a driver echoes in a message is masked wherever it appears.
 *
 * <p>The values are kept JVM-wide rather than per task so that every log site can redact with one
 * call, without the task's options in hand: a worker's secrets are then masked in every task's
 * errors, which is only stricter. Whatever builds a catalog from resolved properties remembers them
 * first ({@link SecretReferences#resolve}, then {@link #remember}). Values shorter than four characters,
 * and {@code true}/{@code false}, are not searched for: they would mask unrelated words.
 */
public final class Redaction {
  static final String MASK = "****";
  static final int MIN_REMEMBERED_LENGTH = 4;
  /** URI user-info; group 1 is the password, when there is one. */
  private static final Pattern URI_USER_INFO = Pattern.compile("//[^/@:\\s]*(?::([^/@\\s]*))?@");
  /** A secret-named query or JDBC parameter; group 1 is its name and "=", group 2 its value. */
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile("(?i)([?&;][^=&;?]*(?:" + SecretProperties.SECRET_WORDS + ")[^=&;?]*=)([^&;]*)");
  /** Longest first, so a value that contains another is masked whole; replaced whole, never changed. */
  private static volatile List<String> remembered = List.of();

  private Redaction() {}

  public static boolean isSecret(String propertyName) {
    return SecretProperties.isSecret(propertyName);
  }

  /**
   * The properties as they may be shown: a secret value is masked, unless it is a {@link
   * SecretProperties#isReference reference} (which names where the secret is, not the secret); other values have
   * the credentials they carry masked.
   */
  public static Map<String, String> redact(Map<String, String> properties) {
    Map<String, String> shown = new TreeMap<>();
    properties.forEach(
        (key, value) ->
            shown.put(key, !isSecret(key) ? redact(value) : SecretProperties.isReference(value) ? value : MASK));
    return shown;
  }

  /**
   * Remembers the secrets in catalog properties as resolved on this worker, so that {@link
   * #redact(String)} masks them verbatim: the values of secret-named properties, and the passwords
   * and secret parameters inside other values (a JDBC URL's).
   */
  public static void remember(Map<String, String> properties) {
    properties.forEach(
        (key, value) -> {
          if (value == null) {
            return;
          }
          if (isSecret(key)) {
            rememberValue(value);
          }
          rememberGroup(URI_USER_INFO.matcher(value), 1);
          rememberGroup(SECRET_PARAMETER.matcher(value), 2);
        });
  }

  private static void rememberGroup(Matcher matcher, int group) {
    while (matcher.find()) {
      if (matcher.group(group) != null) {
        rememberValue(matcher.group(group));
      }
    }
  }

  private static synchronized void rememberValue(String value) {
    if (value.length() < MIN_REMEMBERED_LENGTH
        || value.equalsIgnoreCase("true")
        || value.equalsIgnoreCase("false")
        || remembered.contains(value)) {
      return;
    }
    List<String> sorted = new ArrayList<>(remembered);
    sorted.add(value);
    sorted.sort(Comparator.comparingInt(String::length).reversed());
    remembered = List.copyOf(sorted);
  }

  /** The text with every remembered secret, URI user-info and secret-named parameter masked. */
  public static String redact(String text) {
    if (text == null) {
      return null;
    }
    String masked = text;
    for (String secret : remembered) {
      masked = masked.replace(secret, MASK);
    }
    masked = URI_USER_INFO.matcher(masked).replaceAll("//" + MASK + "@");
    return SECRET_PARAMETER.matcher(masked).replaceAll("$1" + MASK);
  }

  /**
   * The error as it may be logged or reported: itself when neither it nor any of its causes and
   * suppressed errors carries a secret; otherwise a {@link RedactedException} copy whose messages
   * are redacted, keeping each original type's name and stack trace (a clean cause or suppressed
   * error is kept as it is).
   */
  public static Throwable of(Throwable error) {
    if (error == null || isClean(error, Collections.newSetFromMap(new IdentityHashMap<>()))) {
      return error;
    }
    return copy(error, new IdentityHashMap<>());
  }

  /** As {@link #of(Throwable)}, for an error to rethrow. */
  public static RuntimeException of(RuntimeException error) {
    return (RuntimeException) of((Throwable) error);
  }

  private static boolean isClean(Throwable error, Set<Throwable> seen) {
    if (!seen.add(error)) {
      return true;
    }
    if (changes(error.getMessage()) || changes(error.getLocalizedMessage())) {
      return false;
    }
    if (error.getCause() != null && !isClean(error.getCause(), seen)) {
      return false;
    }
    for (Throwable suppressed : error.getSuppressed()) {
      if (!isClean(suppressed, seen)) {
        return false;
      }
    }
    return true;
  }

  private static boolean changes(String text) {
    return text != null && !text.equals(redact(text));
  }

  private static Throwable copy(Throwable error, Map<Throwable, Throwable> copies) {
    Throwable done = copies.get(error);
    if (done != null) {
      return done;
    }
    if (isClean(error, Collections.newSetFromMap(new IdentityHashMap<>()))) {
      return error;
    }
    RedactedException redacted = new RedactedException(error, redact(error.getMessage()));
    copies.put(error, redacted);
    if (error.getCause() != null) {
      redacted.initCause(copy(error.getCause(), copies));
    }
    for (Throwable suppressed : error.getSuppressed()) {
      redacted.addSuppressed(copy(suppressed, copies));
    }
    return redacted;
  }
}
