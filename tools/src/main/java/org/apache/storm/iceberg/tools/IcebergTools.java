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


package org.apache.storm.iceberg.tools;

import java.util.Arrays;

/**
 * The tools jar's entry point: {@code check} runs {@link IcebergPreflight}, {@code inspect} (or
 * options alone, as before there were two tools) runs {@link IcebergInspect}, {@code maintain} runs
 * {@link IcebergMaintain}.
 *
 * <pre>
 *   java -jar storm-iceberg-tools-….jar check --options sink.yaml
 *   java -jar storm-iceberg-tools-….jar inspect --catalog type=hadoop --catalog warehouse=… --table db.events
 * </pre>
 */
public final class IcebergTools {
  static final String USAGE = "usage: java -jar storm-iceberg-tools.jar check|inspect|maintain OPTIONS...\n"
      + "  check   --options FILE | --flux FILE --component ID [--filter PROPERTIES] [--env-filter] [--fields A,B,...]\n"
      + "  inspect --catalog KEY=VALUE ... --table NS.TABLE [--catalog-name NAME] [--snapshots N]"
      + " [--wal-store NAME --wal-property KEY=VALUE]\n"
      + "  " + IcebergMaintain.USAGE;

  private IcebergTools() {}

  public static void main(String[] args) {
    if (args.length == 0) {
      System.err.println(USAGE);
      System.exit(2);
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "check" -> System.exit(IcebergPreflight.run(rest, System.out, System.err));
      case "inspect" -> IcebergInspect.main(rest);
      case "maintain" -> IcebergMaintain.main(rest);
      default -> {
        if (args[0].startsWith("--")) {
          IcebergInspect.main(args);
        } else {
          System.err.println("unknown command " + args[0] + "\n" + USAGE);
          System.exit(2);
        }
      }
    }
  }
}
