package org.apache.storm.iceberg.spi;

/**
 * Discovers {@link FileFormatWriter}s by name: {@code "parquet"}, {@code "orc"} and {@code "avro"}
 * ship by default. Unless the options name one, the kernel uses the provider named like the table's
 * {@code write.format.default}.
 */
public interface FileFormatWriterFactory extends ProviderFactory<FileFormatWriter> {}
