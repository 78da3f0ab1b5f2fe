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

package org.apache.storm.iceberg.kernel.commit;

import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;

/** Several ancestry validators as one, since an Iceberg update takes only one; the first refusal wins. */
final class AllValidators implements SnapshotAncestryValidator {
  private final List<SnapshotAncestryValidator> validators;
  private SnapshotAncestryValidator refusing;

  AllValidators(SnapshotAncestryValidator... validators) {
    this.validators = List.of(validators);
  }

  @Override
  public boolean validate(Iterable<Snapshot> baseSnapshots) {
    for (SnapshotAncestryValidator validator : validators) {
      if (!validator.validate(baseSnapshots)) {
        refusing = validator;
        return false;
      }
    }
    return true;
  }

  @Override
  public String errorMessage() {
    return refusing == null ? "no validator refused" : refusing.errorMessage();
  }
}
