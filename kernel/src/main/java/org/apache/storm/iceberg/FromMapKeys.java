package org.apache.storm.iceberg;

import static org.apache.storm.iceberg.kernel.options.OptionKeys.eachEntry;
import static org.apache.storm.iceberg.kernel.options.OptionKeys.stringMap;
import static org.apache.storm.iceberg.kernel.options.OptionKeys.text;
import static org.apache.storm.iceberg.kernel.options.OptionKeys.wholeInt;
import static org.apache.storm.iceberg.kernel.options.OptionKeys.wholeNumber;

import org.apache.storm.iceberg.IcebergOptions.Builder;
import org.apache.storm.iceberg.kernel.options.OptionKeys;
import org.apache.storm.iceberg.kernel.options.OptionsChecks;

/**
 * Each key of {@link IcebergOptions#fromMap} and the builder method it calls (overloaded ones need
 * the type witness); README's options table lists both.
 */
final class FromMapKeys {
  static final OptionKeys<Builder> KEYS =
      new OptionKeys<Builder>()
          .required("catalog", stringMap(Builder::withCatalogProperties))
          .required("table", text(Builder::withTable))
          .optional("catalog-name", text(Builder::withCatalogName))
          .optional("commit-interval-records", wholeNumber(Builder::withCommitIntervalRecords))
          .optional("commit-interval-bytes", wholeNumber(Builder::withCommitIntervalBytes))
          .optional("commit-interval-millis", wholeNumber(Builder::withCommitIntervalMillis))
          .optional("tick-interval-secs", wholeInt(Builder::withTickIntervalSecs))
          .optional("auto-create", OptionKeys.<Builder>autoCreate(Builder::withAutoCreate))
          .optional("record-mapper", OptionKeys.<Builder>provider(Builder::withRecordMapper))
          .optional("file-format", OptionKeys.<Builder>provider(Builder::withFileFormat))
          .optional("wal-store", OptionKeys.<Builder>provider(Builder::withWalStore))
          .optional("wal-namespace", text(Builder::withWalNamespace))
          .optional("spill-directory", text(Builder::withSpillDirectory))
          .optional("seal-policies", OptionKeys.<Builder>providerList(Builder::withSealPolicy))
          .optional("snapshot-properties", eachEntry(Builder::withSnapshotProperty))
          .optional("commit-retries", wholeInt(Builder::withCommitRetries))
          .optional("commit-retry-backoff-millis", wholeNumber(Builder::withCommitRetryBackoffMillis))
          .optional("commit-deadline-margin-millis", wholeNumber(Builder::withCommitDeadlineMarginMillis))
          .optional("group-commit-interval-millis", wholeNumber(Builder::withGroupCommitIntervalMillis))
          .optional("group-commit-max-data-files", wholeInt(Builder::withGroupCommitMaxDataFiles))
          .optional("trident-state-name", text(Builder::withTridentStateName))
          .optional("trident-state-type", text(Builder::withTridentStateType))
          .optional("source-positions", OptionKeys.<Builder>provider(Builder::withSourcePositions))
          .optional("source-reset-accepted", text((builder, value) -> builder.withSourceResetAccepted(OptionsChecks.requireBoolean(value, "source-reset-accepted"))));

  private FromMapKeys() {}
}
