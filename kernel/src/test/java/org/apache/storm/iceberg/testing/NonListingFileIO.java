package org.apache.storm.iceberg.testing;

import java.util.Map;
import org.apache.iceberg.io.FileIO;

/** A FileIO that reads, writes and deletes but cannot list by prefix. */
final class NonListingFileIO implements FileIO {
  private final FileIO delegate;

  NonListingFileIO(FileIO delegate) {
    this.delegate = delegate;
  }

  @Override
  public org.apache.iceberg.io.InputFile newInputFile(String path) {
    return delegate.newInputFile(path);
  }

  @Override
  public org.apache.iceberg.io.OutputFile newOutputFile(String path) {
    return delegate.newOutputFile(path);
  }

  @Override
  public void deleteFile(String path) {
    delegate.deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }
}
