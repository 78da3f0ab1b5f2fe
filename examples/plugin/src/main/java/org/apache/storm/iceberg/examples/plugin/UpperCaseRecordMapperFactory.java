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

package org.apache.storm.iceberg.examples.plugin;

import com.google.auto.service.AutoService;
import java.util.Map;
import java.util.Set;
import org.apache.storm.iceberg.spi.ProviderProperties;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMapperFactory;

/** Registers {@link UpperCaseRecordMapper} as {@code "upper-case"}; it takes no properties. */
@AutoService(RecordMapperFactory.class)
public final class UpperCaseRecordMapperFactory implements RecordMapperFactory {
  @Override
  public String name() {
    return "upper-case";
  }

  @Override
  public RecordMapper create(Map<String, String> properties) {
    ProviderProperties.check("record mapper 'upper-case'", properties, Set.of(), Set.of());
    return new UpperCaseRecordMapper();
  }
}
