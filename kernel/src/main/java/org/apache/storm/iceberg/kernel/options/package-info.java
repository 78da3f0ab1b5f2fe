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

/**
 * Internal: the options stage. Not an API; anything here may change in any release.
 *
 * <p>It owns what a sink was configured with, as the stages read it: {@link
 * org.apache.storm.iceberg.kernel.options.SinkSettings} (small immutable records, built and checked
 * by {@code IcebergOptions.Builder}, which holds them), the providers chosen by name or instance
 * ({@link org.apache.storm.iceberg.kernel.options.ProviderChoice}), every check that {@code build()}
 * runs ({@link org.apache.storm.iceberg.kernel.options.OptionsChecks}), and the reading of {@code
 * IcebergOptions.fromMap} keys ({@link org.apache.storm.iceberg.kernel.options.OptionKeys}). The
 * public bolts hand the settings to the stages; no stage sees {@code IcebergOptions}.
 */
package org.apache.storm.iceberg.kernel.options;
