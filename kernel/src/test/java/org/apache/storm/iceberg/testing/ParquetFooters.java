package org.apache.storm.iceberg.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;

/** What Parquet's own reader finds in the footers of data files on the local file system. */
public final class ParquetFooters {
  private ParquetFooters() {}

  /** The row groups of {@code file}, from its footer. */
  public static List<BlockMetaData> rowGroups(DataFile file) {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(Path.of(URI.create(file.location()))))) {
      return reader.getFooter().getBlocks();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The distinct codecs of every column chunk of {@code files}. */
  public static List<CompressionCodecName> codecs(List<DataFile> files) {
    return files.stream().flatMap(file -> rowGroups(file).stream())
        .flatMap(group -> group.getColumns().stream()).map(ColumnChunkMetaData::getCodec).distinct().toList();
  }
}
