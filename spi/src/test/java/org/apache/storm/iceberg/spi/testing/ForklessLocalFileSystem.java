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


package org.apache.storm.iceberg.spi.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system with file modes set through {@code java.nio} rather than a forked
 * {@code chmod}: without Hadoop's native library, every file Hadoop creates on a local disk (data
 * file, manifest, table metadata, and each one's checksum) forks a {@code chmod} process. The tests'
 * {@code core-site.xml} names this class as {@code fs.file.impl}, so the test JVMs do not spend their
 * commits forking; what reaches the disk is the same.
 */
public final class ForklessLocalFileSystem extends LocalFileSystem {
  public ForklessLocalFileSystem() {
    super(new ForklessRawLocalFileSystem());
  }

  /** The raw (checksum-less) file system beneath. */
  static final class ForklessRawLocalFileSystem extends RawLocalFileSystem {
    @Override
    public void setPermission(Path path, FsPermission permission) throws IOException {
      Files.setPosixFilePermissions(pathToFile(path).toPath(), posix(permission));
    }
  }

  static Set<PosixFilePermission> posix(FsPermission permission) {
    Set<PosixFilePermission> posix = EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE, high bit first
    short mode = permission.toShort();
    for (int i = 0; i < bits.length; i++) {
      if ((mode & (1 << (bits.length - 1 - i))) != 0) {
        posix.add(bits[i]);
      }
    }
    return posix;
  }
}
