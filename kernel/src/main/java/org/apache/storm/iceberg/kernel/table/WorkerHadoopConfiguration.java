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

package org.apache.storm.iceberg.kernel.table;

import java.io.File;
import java.util.Map;

/**
 * The Hadoop {@code Configuration} a task builds its catalog with, and through the catalog its
 * FileIO and (for Hadoop FileIOs) its data file writers: Hadoop's defaults and the worker's
 * classpath {@code core-site.xml}, then every {@code *-site.xml} of the {@value #CONF_DIR_KEY}
 * directory on this worker, then the sink's other entries, last one winning.
 *
 * <p>Hadoop is provided by the worker, not bundled: without it on the classpath there is no
 * configuration ({@code null}), which catalogs and FileIOs that need none accept; a sink that sets
 * entries then fails at prepare with a message that says to ship Hadoop.
 */
public final class WorkerHadoopConfiguration {
  /** The entry naming a directory of Hadoop's {@code *-site.xml} files on the worker. */
  public static final String CONF_DIR_KEY = "hadoop-conf-dir";

  private WorkerHadoopConfiguration() {}

  /** A new configuration from these entries (secret references already resolved), or null without Hadoop. */
  public static Object build(Map<String, String> entries) {
    if (!hadoopPresent()) {
      if (!entries.isEmpty()) {
        throw new IllegalStateException("withHadoopConfiguration is set, but Hadoop is not on this worker's classpath:"
            + " ship hadoop-client-api and hadoop-client-runtime with the topology (or storm jar --artifacts)");
      }
      return null;
    }
    return HadoopPresent.build(entries);
  }

  /** Whether Hadoop's client classes are on this JVM's classpath. */
  public static boolean hadoopPresent() {
    try {
      Class.forName("org.apache.hadoop.conf.Configuration", false, WorkerHadoopConfiguration.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Loaded only when Hadoop is on the classpath. */
  private static final class HadoopPresent {
    static Object build(Map<String, String> entries) {
      org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
      String confDir = entries.get(CONF_DIR_KEY);
      if (confDir != null) {
        addSiteFiles(conf, new File(confDir));
      }
      entries.forEach((key, value) -> {
        if (!CONF_DIR_KEY.equals(key)) {
          conf.set(key, value);
        }
      });
      return conf;
    }

    private static void addSiteFiles(org.apache.hadoop.conf.Configuration conf, File dir) {
      File[] siteFiles = dir.listFiles((parent, name) -> name.endsWith("-site.xml"));
      if (siteFiles == null) {
        throw new IllegalStateException(CONF_DIR_KEY + " " + dir + " is not a readable directory on this worker");
      }
      java.util.Arrays.sort(siteFiles);
      for (File siteFile : siteFiles) {
        conf.addResource(new org.apache.hadoop.fs.Path(siteFile.toURI()));
      }
    }
  }
}
