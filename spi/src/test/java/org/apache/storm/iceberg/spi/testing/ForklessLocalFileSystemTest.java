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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForklessLocalFileSystemTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void theTestClasspathsCoreSiteMakesItTheLocalFileSystem() throws Exception {
    FileSystem fs = new Path(dir.toUri()).getFileSystem(new Configuration());
    assertThat(fs).isInstanceOf(ForklessLocalFileSystem.class);
  }

  @Test
  void filesGetHadoopsModeUnderTheUmask() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.permissions.umask-mode", "027");
    FileSystem fs = new ForklessLocalFileSystem();
    fs.initialize(dir.toUri(), conf);
    Path file = new Path(dir.resolve("a/b/file").toUri());
    try (OutputStream out = fs.create(file, true)) {
      out.write(1);
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b/file")))).isEqualTo("rw-r-----");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b")))).isEqualTo("rwxr-x---");
    fs.setPermission(file, new FsPermission((short) 0604));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b/file")))).isEqualTo("rw----r--");
  }
}
