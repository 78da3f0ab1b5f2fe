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

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and of the reference pages in docs/ compiles against the
 * library, as a user would paste it: here, where the whole bundle (the maintenance module included)
 * is on the class path, as it is on a user's.
 *
 * <p>A block that declares a type is a source file of its own, so it must carry its own imports; the
 * blocks that declare types compile together, so one may use another's class. Any other block is the
 * body of a method that may throw, and may use, without declaring them, the {@link #FREE_VARIABLES}
 * and the types of {@link #FRAGMENT_IMPORTS}; its own {@code import} lines are added to those.
 */
class ReadmeSnippetsCompileTest {
  private static final Path README = Path.of("../README.md");
  private static final Path DOCS = Path.of("../docs");
  private static final Pattern TYPE_DECLARATION =
      Pattern.compile("^(?:public )?(?:final |abstract )*(?:class|interface|record|enum) (\\w+)", Pattern.MULTILINE);

  /** The imports a fragment gets: the public API, and the Storm and Iceberg types its free variables have. */
  static final List<String> FRAGMENT_IMPORTS = List.of(
      "java.util.*", "org.apache.storm.iceberg.*", "org.apache.storm.topology.TopologyBuilder",
      "org.apache.storm.tuple.Fields", "org.apache.iceberg.Schema", "org.apache.iceberg.PartitionSpec",
      "org.apache.storm.iceberg.trident.*", "org.apache.storm.trident.Stream", "org.apache.storm.trident.TridentState",
      "org.apache.storm.trident.TridentTopology", "org.apache.storm.trident.spout.IBatchSpout",
      "org.apache.storm.kafka.spout.KafkaSpout", "org.apache.storm.kafka.spout.KafkaSpoutConfig",
      "org.apache.kafka.clients.consumer.ConsumerConfig", "org.apache.storm.Config", "org.apache.storm.StormSubmitter",
      "org.apache.storm.generated.StormTopology", "org.apache.storm.iceberg.maintenance.*",
      "org.apache.storm.iceberg.spi.CommitEventFields");

  /**
   * What a fragment may use as the user's own: a topology being built, the catalog, the table's
   * shape, options, and a Trident spout and stream.
   */
  static final List<String> FREE_VARIABLES = List.of(
      "TopologyBuilder builder", "Map<String, String> catalogProps", "Schema schema", "PartitionSpec spec",
      "IcebergOptions options", "IcebergOptions writerOptions", "IcebergOptions committerOptions", "IBatchSpout spout",
      "Stream stream", "Config conf");

  @TempDir Path classes;

  @Test
  void everyJavaSnippetInTheReadmeCompiles() throws IOException {
    List<Source> sources = new ArrayList<>();
    List<Snippet> snippets = snippets(README);
    assertThat(snippets).as("```java blocks in " + README.toAbsolutePath()).hasSizeGreaterThanOrEqualTo(5);
    try (var pages = Files.list(DOCS)) {
      for (Path page : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        snippets.addAll(snippets(page));
      }
    }
    for (Snippet snippet : snippets) {
      sources.add(snippet.asSource());
    }

    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<String> options = List.of("-proc:none", "-d", classes.toString(), "-classpath", testClasspath());
    compiler.getTask(null, null, diagnostics, options, null, sources).call();

    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        Source source = (Source) d.getSource();
        errors.add(source.page + " line " + source.readmeLine(d.getLineNumber()) + ": " + d.getMessage(Locale.ROOT));
      }
    }
    assertThat(errors).as("README's Java snippets compile").isEmpty();
  }

  /** Surefire hands the forked JVM a one-jar classpath whose manifest names the rest; it also sets this. */
  private static String testClasspath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  static List<Snippet> snippets(Path page) throws IOException {
    List<String> readme = Files.readAllLines(page);
    String name = page.getFileName().toString();
    List<Snippet> snippets = new ArrayList<>();
    for (int i = 0; i < readme.size(); i++) {
      String fence = readme.get(i);
      if (fence.strip().equals("```java")) {
        int indent = fence.indexOf('`');
        List<String> code = new ArrayList<>();
        int firstLine = i + 2;
        while (!readme.get(++i).strip().equals("```")) {
          String line = readme.get(i);
          code.add(line.length() >= indent && line.substring(0, indent).isBlank() ? line.substring(indent) : line.strip());
        }
        snippets.add(new Snippet(name, firstLine, code));
      }
    }
    return snippets;
  }

  /** One ```java block: the page it is on, its code lines and the page's line number of the first. */
  record Snippet(String page, int firstLine, List<String> code) {
    Source asSource() {
      Matcher type = TYPE_DECLARATION.matcher(String.join("\n", code));
      List<Integer> readmeLines = new ArrayList<>();
      StringBuilder text = new StringBuilder();
      if (type.find()) {
        line(text, readmeLines, "package readme;", firstLine);
        for (int i = 0; i < code.size(); i++) {
          line(text, readmeLines, code.get(i), firstLine + i);
        }
        return new Source(page, "readme/" + type.group(1), text.toString(), readmeLines);
      }
      String name = "Snippet" + page.replaceAll("\\W", "_") + firstLine;
      line(text, readmeLines, "package readme;", firstLine);
      FRAGMENT_IMPORTS.forEach(i -> line(text, readmeLines, "import " + i + ";", firstLine));
      for (int i = 0; i < code.size(); i++) {
        if (code.get(i).startsWith("import ")) {
          line(text, readmeLines, code.get(i), firstLine + i);
        }
      }
      line(text, readmeLines, "class " + name + " {", firstLine);
      FREE_VARIABLES.forEach(v -> line(text, readmeLines, v + ";", firstLine));
      line(text, readmeLines, "void snippet() throws Exception {", firstLine);
      for (int i = 0; i < code.size(); i++) {
        line(text, readmeLines, code.get(i).startsWith("import ") ? "" : code.get(i), firstLine + i);
      }
      line(text, readmeLines, "}}", firstLine + code.size() - 1);
      return new Source(page, "readme/" + name, text.toString(), readmeLines);
    }

    private static void line(StringBuilder text, List<Integer> readmeLines, String line, int readmeLine) {
      text.append(line).append('\n');
      readmeLines.add(readmeLine);
    }
  }

  /** A generated source file that knows which page, and which line of it, each of its lines came from. */
  static final class Source extends SimpleJavaFileObject {
    final String page;
    private final String text;
    private final List<Integer> readmeLines;

    Source(String page, String path, String text, List<Integer> readmeLines) {
      super(URI.create("string:///" + path + Kind.SOURCE.extension), Kind.SOURCE);
      this.page = page;
      this.text = text;
      this.readmeLines = readmeLines;
    }

    int readmeLine(long sourceLine) {
      return readmeLines.get((int) Math.max(0, Math.min(sourceLine - 1, readmeLines.size() - 1)));
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return text;
    }
  }
}
