package org.apache.storm.iceberg.formats;

import com.google.auto.service.AutoService;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.storm.iceberg.spi.FileFormatWriter;
import org.apache.storm.iceberg.spi.FileFormatWriterFactory;

/**
 * Registers the {@code "orc"} data-file writer. Its properties are Iceberg writer properties (for
 * example {@code write.orc.compression-codec}) and win over the table's.
 */
@AutoService(FileFormatWriterFactory.class)
public class OrcFormatWriterFactory implements FileFormatWriterFactory {
  public static final String NAME = "orc";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public FileFormatWriter create(Map<String, String> properties) {
    return new GenericFormatWriter(FileFormat.ORC, properties);
  }
}
