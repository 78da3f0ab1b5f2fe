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

package org.apache.storm.iceberg.kernel.options;

import java.util.Objects;
import java.util.function.Function;

/**
 * Hands the settings inside an {@code IcebergOptions} to the public classes of other API packages
 * (the Trident states), so that {@code IcebergOptions} needs no public method returning an internal
 * type. {@code IcebergOptions} registers its reader when its class initializes, which is before any
 * instance exists to be read. Typed {@code Object} so that this internal package does not depend on
 * the public one.
 */
public final class OptionsAccess {
  private static volatile Function<Object, SinkSettings> reader;

  private OptionsAccess() {}

  /** Called once, by {@code IcebergOptions}. */
  public static void register(Function<Object, SinkSettings> settingsReader) {
    reader = Objects.requireNonNull(settingsReader);
  }

  /** The settings of {@code options}, an {@code IcebergOptions}. */
  public static SinkSettings settings(Object options) {
    return reader.apply(Objects.requireNonNull(options, "options"));
  }
}
