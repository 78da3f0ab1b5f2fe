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

package org.apache.storm.iceberg.spi;

import java.util.List;
import org.apache.iceberg.Schema;

/**
 * A {@link RecordMapper} that fills columns from the tuple fields that match them by name, so a
 * field that matches no column is data going nowhere. The mapper tells the kernel of such fields as
 * it resolves each field layout against a schema, which it does once, not per tuple; the kernel
 * counts and logs each field once per schema id.
 *
 * <p>A mapper that reads its fields some other way (the {@code json} mapper reads one field, and a
 * custom mapper may combine several) does not implement this: the kernel cannot tell which of its
 * fields are meant to be left unread.
 */
public interface FieldMatchingMapper extends RecordMapper {
  /**
   * Where to report unmatched fields from now on; the kernel sets it once, before the first tuple.
   * For each schema and field layout it resolves, the mapper calls it before it maps the first
   * tuple of that layout, when the layout has fields that match no column of the schema under a
   * current or former name ({@link FormerNamesSchema#formerNames}).
   */
  void onUnmatchedFields(UnmatchedFields listener);

  /** Receives the fields, in tuple order, that match no column of {@code schema}. */
  @FunctionalInterface
  interface UnmatchedFields {
    void found(Schema schema, List<String> fields);
  }
}
