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
