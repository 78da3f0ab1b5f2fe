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

package org.apache.storm.iceberg.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The log calls of a module's sources that pass an exception (a caught or declared one, by name)
 * without {@code Redaction.of} around it, or its text without {@code Redaction.redact}: read as text,
 * string literals blanked, so that a new log site that forgets redaction fails a test.
 */
public final class UnredactedLogCalls {
  private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
  private static final Pattern CATCH = Pattern.compile("catch\\s*\\(([^)]*?)(\\w+)\\s*\\)");
  private static final Pattern DECLARATION = Pattern.compile("\\b\\w*(?:Exception|Error|Throwable)\\s+(\\w+)\\s*[=;,)]");
  private static final Pattern LOG_CALL = Pattern.compile("LOG\\.(?:trace|debug|info|warn|error)\\((.*?)\\);", Pattern.DOTALL);

  private UnredactedLogCalls() {}

  /** Each unredacted log call under {@code sources} as "File.java: the call (the exception's name)". */
  public static List<String> in(Path sources) {
    List<String> unredacted = new ArrayList<>();
    for (Path file : javaFiles(sources)) {
      String code = STRING_LITERAL.matcher(read(file)).replaceAll("\"\"");
      Set<String> throwables = throwableNames(code);
      Matcher call = LOG_CALL.matcher(code);
      while (call.find()) {
        for (String name : throwables) {
          Pattern bare = Pattern.compile("(?<!Redaction\\.of\\()(?<!Redaction\\.redact\\()\\b" + name + "\\b");
          if (bare.matcher(call.group(1)).find()) {
            unredacted.add(file.getFileName() + ": " + call.group().replaceAll("\\s+", " ") + " (" + name + ")");
          }
        }
      }
    }
    return unredacted;
  }

  /** Every Java file under {@code sources}. */
  public static List<Path> javaFiles(Path sources) {
    try (Stream<Path> files = Files.walk(sources)) {
      return files.filter(f -> f.toString().endsWith(".java")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Set<String> throwableNames(String code) {
    Set<String> names = new LinkedHashSet<>();
    Matcher caught = CATCH.matcher(code);
    while (caught.find()) {
      names.add(caught.group(2));
    }
    Matcher declared = DECLARATION.matcher(code);
    while (declared.find()) {
      names.add(declared.group(1));
    }
    return names;
  }
}
