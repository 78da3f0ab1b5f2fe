package org.apache.storm.iceberg.spi;

/**
 * Creates {@link TableRouter}s; discovered by {@link java.util.ServiceLoader} by name ({@code
 * "field"}, {@code "stream"} and {@code "static"} ship in the kernel).
 */
public interface TableRouterFactory extends ProviderFactory<TableRouter> {}
