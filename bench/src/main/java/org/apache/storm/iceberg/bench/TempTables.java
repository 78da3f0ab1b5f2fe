package org.apache.storm.iceberg.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/** Catalogs on local disk under a temporary directory, deleted afterwards. */
final class TempTables implements AutoCloseable {
  final Path dir;

  TempTables(String prefix) {
    try {
      dir = Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A HadoopCatalog warehouse under this directory. */
  Map<String, String> hadoop() {
    Map<String, String> properties = new HashMap<>();
    properties.put("type", "hadoop");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return properties;
  }

  /** A JdbcCatalog on a SQLite file under this directory, through {@code catalogImpl}. */
  Map<String, String> jdbcSqlite(String catalogImpl) {
    Map<String, String> properties = new HashMap<>();
    properties.put("catalog-impl", catalogImpl);
    properties.put("uri", "jdbc:sqlite:" + dir.resolve("catalog.db").toAbsolutePath());
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return properties;
  }

  @Override
  public void close() {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
