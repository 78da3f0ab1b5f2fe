package org.apache.storm.iceberg.spi;

/** Discovers {@link RecordMapper}s by name (the default is {@code "field-name"}). */
public interface RecordMapperFactory extends ProviderFactory<RecordMapper> {}
