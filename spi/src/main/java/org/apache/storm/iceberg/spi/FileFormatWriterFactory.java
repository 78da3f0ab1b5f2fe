package org.apache.storm.iceberg.spi;

/**
 * Discovers {@link FileFormatWriter}s by name: {@code "parquet"}, {@code "orc"} and {@code "avro"}
 * ship by default. Unless the options name one, the kernel uses the provider named like the {@code
 * write.format.default} of the sink's write properties, else the table's. The kernel creates the
 * provider with the sink's write properties ({@code withWriteProperties}, Iceberg {@code write.*}
 * keys) under the properties the options give it: a provider applies them over the table's.
 */
public interface FileFormatWriterFactory extends ProviderFactory<FileFormatWriter> {}
