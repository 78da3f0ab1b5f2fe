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

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.storm.iceberg.mappers.FieldNameRecordMapper;
import org.apache.storm.iceberg.spi.RecordMapper;
import org.apache.storm.iceberg.spi.RecordMappingException;
import org.apache.storm.tuple.ITuple;

/**
 * The default field-name mapper, except that it throws the first time it sees one id: an error in
 * a Trident state's updater (or a writing partition), which fails the batch once. The throw count
 * is kept in a static registry under the mapper's key, since the mapper travels serialized.
 */
public final class ThrowOnceMapper implements RecordMapper {
  private static final long serialVersionUID = 1L;
  private static final Map<String, AtomicInteger> THROWN = new ConcurrentHashMap<>();

  private final String key;
  private final long id;
  private final FieldNameRecordMapper delegate = new FieldNameRecordMapper();

  public ThrowOnceMapper(String key, long id) {
    this.key = key;
    this.id = id;
    THROWN.putIfAbsent(key, new AtomicInteger());
  }

  /** How many times the mapper under {@code key} threw. */
  public static int thrown(String key) {
    return THROWN.get(key).get();
  }

  @Override
  public Record map(ITuple tuple, Schema schema) {
    if (tuple.getLongByField("id") == id && THROWN.get(key).compareAndSet(0, 1)) {
      throw new RecordMappingException("id", "injected: the mapper fails once on id " + id);
    }
    return delegate.map(tuple, schema);
  }
}
