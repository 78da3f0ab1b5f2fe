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

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.hadoop.HadoopOutputFile;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * The {@code memory://} files of Iceberg's {@link InMemoryFileIO} seen as a Hadoop FileSystem, failing
 * a data file's create or close where {@link Faults} says, as {@link FaultyFileIO} does for other files.
 *
 * <p>Why it exists: Iceberg 1.11's Parquet writer copies the Hadoop {@code Configuration} of a {@link
 * HadoopOutputFile} but builds a {@code new Configuration()} for any other output file, which parses
 * Hadoop's default XML resources again (6–11 ms of CPU per data file once HDFS classes are loaded:
 * a fifth of the fault schedules' CPU). Handing Parquet a {@link HadoopOutputFile} on this file system
 * makes that a copy of one loaded configuration; the bytes still land in {@link InMemoryFileIO}, and
 * the faults still fail the real create and close that Parquet makes.
 */
public final class InMemoryHadoopFileSystem extends FileSystem {
  private static final String SCHEME = "memory";
  private static final String FAULT_KEY = "storm-iceberg.test.fault-key";
  /** Loaded once, so each data file pays a copy rather than a parse of Hadoop's default resources. */
  private static final Configuration BASE = loadedBase();

  private final InMemoryFileIO files = new InMemoryFileIO();
  private URI uri;
  private Faults faults;

  private static Configuration loadedBase() {
    Configuration conf = new Configuration();
    conf.set("fs." + SCHEME + ".impl", InMemoryHadoopFileSystem.class.getName());
    // Uncached: each instance carries the faults of the configuration it was made from.
    conf.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
    return conf;
  }

  /**
   * The output file Parquet should get for {@code location}, an in-memory data file, with {@code
   * faults}; {@code null} where the location does not survive as a Hadoop path unchanged.
   */
  static OutputFile dataFile(String location, Faults faults) {
    if (!location.startsWith(SCHEME + "://") || !location.endsWith(".parquet")) {
      return null;
    }
    Path path = new Path(location);
    if (!path.toString().equals(location)) {
      return null;
    }
    Configuration conf = new Configuration(BASE);
    conf.set(FAULT_KEY, faults.key);
    return HadoopOutputFile.fromPath(path, conf);
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    this.uri = URI.create(SCHEME + "://" + name.getAuthority());
    this.faults = Faults.of(conf.get(FAULT_KEY));
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    OutputFile file = FaultyFileIO.faultyDataFile(files.newOutputFile(f.toString()), faults);
    try {
      return new FSDataOutputStream(overwrite ? file.createOrOverwrite() : file.create(), null);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    SeekableInputStream in = files.newInputFile(f.toString()).newStream();
    return new FSDataInputStream(new Readable(in));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    try {
      long length = files.newInputFile(f.toString()).getLength();
      return new FileStatus(length, false, 1, getDefaultBlockSize(f), 0L, f);
    } catch (NotFoundException e) {
      throw new FileNotFoundException(f.toString());
    }
  }

  @Override
  public boolean delete(Path f, boolean recursive) {
    files.deleteFile(f.toString());
    return true;
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) {
    throw new UnsupportedOperationException("in-memory files cannot be appended to");
  }

  @Override
  public boolean rename(Path src, Path dst) {
    throw new UnsupportedOperationException("in-memory files cannot be renamed");
  }

  @Override
  public FileStatus[] listStatus(Path f) {
    throw new UnsupportedOperationException("in-memory files cannot be listed");
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    throw new UnsupportedOperationException("no working directory");
  }

  @Override
  public Path getWorkingDirectory() {
    return new Path(uri.toString() + "/");
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) {
    return true;
  }

  /** An Iceberg stream as the seekable, positioned stream Hadoop's FSDataInputStream requires. */
  private static final class Readable extends InputStream implements Seekable, PositionedReadable {
    private final SeekableInputStream in;

    Readable(SeekableInputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in.read(b, off, len);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      long back = in.getPos();
      in.seek(position);
      try {
        return in.read(buffer, offset, length);
      } finally {
        in.seek(back);
      }
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      long back = in.getPos();
      in.seek(position);
      try {
        int done = 0;
        while (done < length) {
          int n = in.read(buffer, offset + done, length - done);
          if (n < 0) {
            throw new java.io.EOFException("end of " + length + " bytes at " + position);
          }
          done += n;
        }
      } finally {
        in.seek(back);
      }
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }
  }
}
