package org.apache.storm.iceberg.spi;

/** Creates {@link SourcePositionExtractor}s; discovered by {@link java.util.ServiceLoader} by name (for example {@code "kafka"}). */
public interface SourcePositionExtractorFactory extends ProviderFactory<SourcePositionExtractor> {}
