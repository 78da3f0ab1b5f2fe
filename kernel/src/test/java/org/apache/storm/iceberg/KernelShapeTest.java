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

package org.apache.storm.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The kernel's shape, read from its compiled classes with the JDK's {@code jdeps}: every use
 * counts, not only import lines (classes of one package use each other without imports). Nested
 * classes count as their top-level class.
 */
class KernelShapeTest {
  private static final String ROOT = "org.apache.storm.iceberg";
  private static final String INTERNAL = ROOT + ".kernel";
  private static final Pattern EDGE = Pattern.compile("^\\s+(" + Pattern.quote(ROOT) + "\\S*)\\s+->\\s+(" + Pattern.quote(ROOT) + "\\S*)\\s");
  /** Public types the internal stages may use: what they throw for users to catch. */
  private static final Set<String> PUBLIC_TYPES_STAGES_USE =
      Set.of(ROOT + ".TupleMappingException", ROOT + ".TableDroppedException");

  static Map<String, Set<String>> classes;

  @BeforeAll
  static void readTheCompiledKernel() throws Exception {
    Path compiled = Path.of(IcebergBolt.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("the JDK has no jdeps"));
    StringWriter out = new StringWriter();
    int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none", compiled.toString());
    assertThat(exit).as(out.toString()).isZero();
    classes = new TreeMap<>();
    for (String line : out.toString().split("\n")) {
      Matcher edge = EDGE.matcher(line);
      if (edge.find()) {
        String from = topLevel(edge.group(1));
        String to = topLevel(edge.group(2));
        classes.computeIfAbsent(from, k -> new TreeSet<>());
        if (!from.equals(to) && !to.startsWith(ROOT + ".spi.")) {
          classes.get(from).add(to);
        }
      }
    }
    assertThat(classes).as("jdeps read the kernel's classes").containsKey(ROOT + ".IcebergBolt");
  }

  private static String topLevel(String className) {
    int nested = className.indexOf('$');
    return nested < 0 ? className : className.substring(0, nested);
  }

  private static String packageOf(String className) {
    return className.substring(0, className.lastIndexOf('.'));
  }

  @Test
  void noClassDependsOnAClassThatDependsOnIt() {
    assertThat(cycles(classes)).as("cycles between classes (a class that uses the class that builds or calls it)").isEmpty();
  }

  @Test
  void noCycleBetweenPackages() {
    Map<String, Set<String>> packages = new TreeMap<>();
    classes.forEach(
        (from, tos) -> {
          Set<String> targets = packages.computeIfAbsent(packageOf(from), k -> new TreeSet<>());
          for (String to : tos) {
            if (!packageOf(to).equals(packageOf(from)) && !PUBLIC_TYPES_STAGES_USE.contains(to)) {
              targets.add(packageOf(to));
            }
          }
        });
    assertThat(cycles(packages)).as("cycles between packages").isEmpty();
  }

  @Test
  void internalStagesUseThePublicPackageOnlyForTheExceptionsTheyThrow() {
    List<String> uses = new ArrayList<>();
    classes.forEach(
        (from, tos) -> {
          if (from.startsWith(INTERNAL + ".")) {
            tos.stream()
                .filter(to -> packageOf(to).equals(ROOT) && !PUBLIC_TYPES_STAGES_USE.contains(to))
                .forEach(to -> uses.add(from + " -> " + to));
          }
        });
    assertThat(uses).isEmpty();
  }

  @Test
  void everyInternalPackageSaysItIsInternal() throws Exception {
    Set<String> internal = new TreeSet<>();
    classes.keySet().stream().filter(c -> c.startsWith(INTERNAL + ".")).map(KernelShapeTest::packageOf).forEach(internal::add);
    for (String pkg : internal) {
      Path info = Path.of("src/main/java", pkg.replace('.', '/'), "package-info.java");
      assertThat(info).as(pkg + " has a package-info").exists();
      assertThat(java.nio.file.Files.readString(info)).as(pkg + "'s package-info").containsIgnoringCase("internal");
    }
    assertThat(internal).as("the flat kernel package is split by stage").doesNotContain(INTERNAL);
  }

  /** Every strongly connected group of more than one node, by Tarjan's algorithm. */
  static List<Set<String>> cycles(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<Set<String>> found = new ArrayList<>();
    int[] counter = {0};
    for (String node : graph.keySet()) {
      if (!index.containsKey(node)) {
        connect(node, graph, index, low, stack, onStack, found, counter);
      }
    }
    return found;
  }

  private static void connect(
      String node, Map<String, Set<String>> graph, Map<String, Integer> index, Map<String, Integer> low,
      Deque<String> stack, Set<String> onStack, List<Set<String>> found, int[] counter) {
    index.put(node, counter[0]);
    low.put(node, counter[0]);
    counter[0]++;
    stack.push(node);
    onStack.add(node);
    for (String next : graph.getOrDefault(node, Set.of())) {
      if (!index.containsKey(next)) {
        connect(next, graph, index, low, stack, onStack, found, counter);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      Set<String> group = new TreeSet<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        group.add(member);
      } while (!member.equals(node));
      if (group.size() > 1) {
        found.add(group);
      }
    }
  }
}
