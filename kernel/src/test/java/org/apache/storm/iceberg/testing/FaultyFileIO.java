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

package org.apache.storm.iceberg.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * A real table's FileIO that fails where {@link Faults} says: creating or closing a data file, and
 * writing (before or after the bytes land) or deleting a WAL entry kept through the table's FileIO.
 */
final class FaultyFileIO implements FileIO, SupportsPrefixOperations {
  private final FileIO delegate;
  private final Faults faults;

  FaultyFileIO(FileIO delegate, Faults faults) {
    this.delegate = delegate;
    this.faults = faults;
  }

  private static boolean isWal(String path) {
    return path.contains("/_storm_wal/");
  }

  @Override
  public InputFile newInputFile(String path) {
    return delegate.newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return delegate.newInputFile(path, length);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    OutputFile file = delegate.newOutputFile(path);
    if (isWal(path)) {
      return new FaultyOutputFile(file, faults.walWriteFailuresBefore, faults.walWriteFailuresAfter, "WAL entry");
    }
    if (path.contains("/data/") && faults.dataFileFaults) {
      // An in-memory Parquet data file goes to Parquet as a Hadoop file, which spares Parquet a
      // fresh Hadoop Configuration per file; the same faults fail its create and close there.
      OutputFile hadoopFile = delegate instanceof org.apache.iceberg.inmemory.InMemoryFileIO
          ? InMemoryHadoopFileSystem.dataFile(path, faults) : null;
      if (hadoopFile != null) {
        return hadoopFile;
      }
      return faultyDataFile(file, faults);
    }
    return file;
  }

  /** {@code file}, a data file, failing its create or close where {@code faults} says. */
  static OutputFile faultyDataFile(OutputFile file, Faults faults) {
    return new FaultyOutputFile(file, faults.dataFileWriteFailures, faults.dataFileCloseFailures, "data file");
  }

  @Override
  public void deleteFile(String path) {
    if (isWal(path) && Faults.take(faults.walDeleteFailures)) {
      throw new UncheckedIOException(new IOException("injected: cannot delete WAL entry " + path));
    }
    delegate.deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    return ((SupportsPrefixOperations) delegate).listPrefix(prefix);
  }

  @Override
  public void deletePrefix(String prefix) {
    ((SupportsPrefixOperations) delegate).deletePrefix(prefix);
  }

  /** Fails to open (before a byte is written) or to close (after they all are), when armed. */
  private static final class FaultyOutputFile implements OutputFile {
    private final OutputFile delegate;
    private final java.util.concurrent.atomic.AtomicInteger openFailures;
    private final java.util.concurrent.atomic.AtomicInteger closeFailures;
    private final String what;

    FaultyOutputFile(OutputFile delegate, java.util.concurrent.atomic.AtomicInteger openFailures,
        java.util.concurrent.atomic.AtomicInteger closeFailures, String what) {
      this.delegate = delegate;
      this.openFailures = openFailures;
      this.closeFailures = closeFailures;
      this.what = what;
    }

    @Override
    public PositionOutputStream create() {
      return wrap(open(false));
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return wrap(open(true));
    }

    private PositionOutputStream open(boolean overwrite) {
      if (Faults.take(openFailures)) {
        throw new UncheckedIOException(new IOException("injected: cannot write " + what + " " + delegate.location()));
      }
      return overwrite ? delegate.createOrOverwrite() : delegate.create();
    }

    private PositionOutputStream wrap(PositionOutputStream out) {
      return new PositionOutputStream() {
        @Override
        public long getPos() throws IOException {
          return out.getPos();
        }

        @Override
        public void write(int b) throws IOException {
          out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
          out.flush();
        }

        @Override
        public void close() throws IOException {
          out.close();
          if (Faults.take(closeFailures)) {
            throw new IOException("injected: " + what + " " + delegate.location() + " written but its close failed");
          }
        }
      };
    }

    @Override
    public String location() {
      return delegate.location();
    }

    @Override
    public InputFile toInputFile() {
      return delegate.toInputFile();
    }
  }
}
