#!/usr/bin/env python3
# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#   http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing,
# software distributed under the License is distributed on an
# "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
# KIND, either express or implied.  See the License for the
# specific language governing permissions and limitations
# under the License.

"""Formats one bench/run.sh run as docs/BENCHMARKS.md: machine, commands, medians, spread and ratios.

Inputs: the harnesses' CSV (suite,params,variant,rep,value,unit; one line per measured repetition),
JMH's JSON, and run.sh's log of commands with their wall times. Every ratio compares two figures
measured in the same run (BASELINES, FLINK_MODES, TARGETS), so the figures survive a noisy, shared
machine better than absolute numbers do.

The file has two parts. The generated part (the targets of issue #21, one section a suite, Storm
against Flink) comes from the CSV alone. Then every docs/benchmarks/*.md file, in the order of its
name, verbatim but for its license comment: the analysis done by hand (profiles, before-and-after
runs of two builds), each under a heading that dates it. A table a full run regenerates belongs in
the generated part, and what explains it in SUITE_NOTES, not in a hand-written file.
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
from collections import defaultdict

# StormSettings' variants other than the defaults, as StormSettings.VARIANTS names them.
STORM_SETTINGS = ["bolt-wait=park-100us", "spout-wait=park-100us", "producer-batch=100", "producer-batch=1000",
                  "transfer-batch=100",
                  "ackers=2", "max-pending=1x-batch", "max-pending=4x-batch"]

# suite -> {variant: the variant of the same suite and params it is compared with}
BASELINES = {
    "MapperBenchmark": {
        "byNameEachTuple": "positionalCopy",
        "fieldNameMapper": "positionalCopy",
        "jsonMapper": "jacksonParseOnly",
    },
    "KernelVsLimit": {
        "kernel": ("limit", "limit building records", "limit internal rows", "kernel without row checks"),
        "kernel without row checks": "limit",
        "limit internal rows": "limit",
        "limit building records": "limit",
        "kernel per-thread-cpu-s": ("limit per-thread-cpu-s", "limit building records per-thread-cpu-s",
                                    "kernel without row checks per-thread-cpu-s"),
        "kernel without row checks per-thread-cpu-s": "limit per-thread-cpu-s",
        "limit building records per-thread-cpu-s": "limit per-thread-cpu-s",
    },
    "EndToEnd": {
        "iceberg-bolt": "acking-bolt",
        "iceberg-bolt per-cpu-s": "acking-bolt per-cpu-s",
        "iceberg-bolt warm": "acking-bolt warm",
        "iceberg-bolt warm per-cpu-s": "acking-bolt warm per-cpu-s",
        **{f"iceberg-bolt {n} records/tuple": ("acking-bolt", "iceberg-bolt") for n in (1, 10, 100)},
        **{f"iceberg-bolt {n} records/tuple per-cpu-s": ("acking-bolt per-cpu-s", "iceberg-bolt per-cpu-s")
           for n in (1, 10, 100)},
    },
    # Each of Storm's settings against Storm's defaults, for each sink (StormSettings.VARIANTS).
    "StormSettings": {f"{sink} {setting}{unit}": f"{sink} defaults{unit}"
                      for sink in ("acking-bolt", "iceberg-bolt") for unit in (" per-cpu-s", "")
                      for setting in STORM_SETTINGS},
    # Each sink against those before it, over the whole run and over its warm half, per second and per CPU second.
    "TridentEndToEnd": {
        f"{sink}{figure}": tuple(f"{base}{figure}" for base in bases)
        for figure in ("", " per-cpu-s", " warm", " warm per-cpu-s")
        for sink, bases in (("iceberg-bolt", ("acking-bolt",)), ("trident-state", ("acking-bolt", "iceberg-bolt")),
                            ("trident-persist", ("acking-bolt", "iceberg-bolt", "trident-state")))
    },
    "DedupCost": {
        "with positions cpu-ns/record": "without positions cpu-ns/record",
        "with positions wall-ns/record": "without positions wall-ns/record",
    },
    "PartitionGrouping": {
        "grouping files/commit": "shuffle files/commit",
        "grouping files/partition": "shuffle files/partition",
        "grouping per-cpu-s": "shuffle per-cpu-s",
        "grouping records/s": "shuffle records/s",
        "grouping heap-after-gc": "shuffle heap-after-gc",
    },
    "CommitLatency": {"committing-thread": "iceberg-worker-pool"},
    "SnapshotLookup": {"positions sink at first snapshot read again": "positions sink at first snapshot"},
    "CommitScaling": {
        "split-sink snapshots/s": "iceberg-bolt snapshots/s",
        "split-sink records/s": "iceberg-bolt records/s",
    },
    "RowLevelCost": {
        **{f"{mode} per-cpu-s": "append per-cpu-s" for mode in ("upsert", "changelog")},
        **{f"{mode} records/s": "append records/s" for mode in ("upsert", "changelog")},
        "changelog cpu-ns/record": "upsert cpu-ns/record",
    },
    "FlinkUpsertPeer": {
        "flink-IcebergSink upsert per-cpu-s": "flink-IcebergSink append per-cpu-s",
        "flink-IcebergSink upsert records/s": "flink-IcebergSink append records/s",
    },
    "RowLevelReadCost": {"upsert scan ms": "append scan ms"},
    "MaintenanceHour": {f"maintained {m}": f"unmaintained {m}" for m in
                        ["metadata.json KB", "commit p50", "commit p99", "data files/partition", "manifests", "heap used",
                         "full scan"]},
}

# Suites whose repetitions run both variants back to back, so a repetition's two figures share the
# machine's weather and their ratio is steadier than the ratio of medians.
PAIRED = {"KernelVsLimit", "EndToEnd", "StormSettings", "TridentEndToEnd", "DedupCost", "PartitionGrouping", "CommitLatency",
          "RowLevelCost", "FlinkUpsertPeer", "RowLevelReadCost"}

# The Storm-against-Flink table: (mode, suite, variant in records/s); its per-CPU figure is the variant
# + " per-cpu-s". Each is compared with both Flink sinks at the same `partitions`.
FLINK_MODES = [
    ("Storm alone: spout → acking bolt, no sink", "EndToEnd", "acking-bolt"),
    ("IcebergBolt", "EndToEnd", "iceberg-bolt"),
    ("IcebergBolt, 10 records a tuple (MultiRecordMapper)", "EndToEnd", "iceberg-bolt 10 records/tuple"),
    ("IcebergBolt, 100 records a tuple (MultiRecordMapper)", "EndToEnd", "iceberg-bolt 100 records/tuple"),
    ("Storm alone, warm half (against Flink's warm half)", "EndToEnd", "acking-bolt warm"),
    ("IcebergBolt, warm half (against Flink's warm half)", "EndToEnd", "iceberg-bolt warm"),
    ("Trident, IcebergStateFactory", "TridentEndToEnd", "trident-state"),
    ("Trident, IcebergTrident.persist", "TridentEndToEnd", "trident-persist"),
    ("Trident, IcebergStateFactory, warm half (against Flink's warm half)", "TridentEndToEnd", "trident-state warm"),
    ("Trident, IcebergTrident.persist, warm half (against Flink's warm half)", "TridentEndToEnd", "trident-persist warm"),
]
FLINK_SINKS = ["flink-FlinkSink", "flink-IcebergSink"]

# The issues' targets: (issue, what, suite, params regex, variant, baseline, at least; None: no fixed bound, the
# figure is reported). Each is met when the ratio, paired by repetition where the suite pairs them, reaches the
# bound at every params the regex matches. #21's are kept beside the later ones that revised them (#34).
TARGETS = [
    ("#21", "IcebergBolt against the acking bolt, records per process CPU second, unpartitioned",
     "EndToEnd", r"columns=5 partitions=1 .*", "iceberg-bolt per-cpu-s", "acking-bolt per-cpu-s", 0.8),
    ("#21", "IcebergBolt against the acking bolt, records per process CPU second, 16 partitions (as close as the writer "
     "allows)", "EndToEnd", r"columns=5 partitions=16 .*", "iceberg-bolt per-cpu-s", "acking-bolt per-cpu-s", None),
    ("#21", "IcebergBolt against the acking bolt, records per second, unpartitioned",
     "EndToEnd", r"columns=5 partitions=1 .*", "iceberg-bolt", "acking-bolt", 0.9),
    ("#21", "Kernel against `limit building records`, 5 columns",
     "KernelVsLimit", r"columns=5 partitions=\d+ batch=100000 pool=8192", "kernel", "limit building records", 0.95),
    ("#21", "Kernel against `limit building records` per thread-CPU second, 5 columns (the same target without the "
     "machine's neighbours)", "KernelVsLimit", r"columns=5 partitions=\d+ batch=100000 pool=8192",
     "kernel per-thread-cpu-s", "limit building records per-thread-cpu-s", 0.95),
    ("#21", "Kernel against `limit`, 50 columns",
     "KernelVsLimit", r"columns=50 partitions=\d+ batch=100000 pool=8192", "kernel", "limit", 0.9),
    ("#34", "IcebergBolt against the acking bolt, records per process CPU second, unpartitioned",
     "EndToEnd", r"columns=5 partitions=1 .*", "iceberg-bolt per-cpu-s", "acking-bolt per-cpu-s", 0.6),
    ("#34", "IcebergBolt against the acking bolt, records per process CPU second, 16 partitions",
     "EndToEnd", r"columns=5 partitions=16 .*", "iceberg-bolt per-cpu-s", "acking-bolt per-cpu-s", 0.4),
    ("#34", "Kernel against `limit` at batches of 1,000,000 records",
     "KernelVsLimit", r"columns=5 partitions=\d+ batch=1000000 pool=8192", "kernel", "limit", 0.9),
    ("#34", "Kernel against `limit` per thread-CPU second at batches of 1,000,000 records (the same target without "
     "the machine's neighbours)", "KernelVsLimit", r"columns=5 partitions=\d+ batch=1000000 pool=8192",
     "kernel per-thread-cpu-s", "limit per-thread-cpu-s", 0.9),
    ("#31", "Upsert against append, records per CPU second of the bolt's thread, 10 % updates (the ratio of append's "
     "CPU a record to upsert's)", "RowLevelCost", r".* updates=10% .*", "append cpu-ns/record", "upsert cpu-ns/record", 0.7),
    ("#31", "Upsert against append, records per process CPU second (commits, GC and the JIT included), 10 % updates",
     "RowLevelCost", r".* updates=10% .*", "upsert per-cpu-s", "append per-cpu-s", 0.7),
]

# The suites in bench/run.sh's order; a suite not listed comes after them.
SUITE_ORDER = ["MapperBenchmark", "KernelVsLimit", "EndToEnd", "StormSettings", "DedupCost", "RowLevelCost", "RowLevelReadCost",
               "TridentEndToEnd", "FlinkPeer", "FlinkUpsertPeer", "CommitScaling", "CommitLatency", "PartitionGrouping", "BatchMemory", "RoutingMemory", "TridentMemory", "SnapshotLookup",
               "MaintenanceHour", "Soak"]

SUITE_NOTES = {
    "MaintenanceHour": "A simulated hour at one commit a second on a JdbcCatalog (SQLite) table in four partitions, "
    "8 data files a commit, every commit carrying the sink's summary keys (its token), without maintenance and with "
    "the maintenance pass every 120 commits (on the committing thread; expiry keeping the newest 100 snapshots, as "
    "the hour runs faster than an hour; manifests rewritten above 100; compaction with real Parquet only). The rep "
    "column is the ten-minute window (600 commits). `metadata`: data files are entries only, a whole hour; `parquet`: "
    "ten-row Parquet files, half an hour, and the full scan reads every row back. The harness checks the token "
    "survived and every row. `sink`: the sink itself: IcebergBolt commits 7,200 rows a commit (Parquet files rolled "
    "at 1,000 rows: 8 files over the 4 partitions) through its commit protocol, at the pace shown, and the "
    "maintenance bolt, fed the sink's commit events, runs its pass every 120 commits on its own thread beside the "
    "sink's commits (compaction towards 8 MiB files, expiry keeping 100 snapshots, manifests rewritten above 100). "
    "Commit times are the sink's own, from its commit events; heap is the live heap after a GC of the JVM that runs "
    "the sink task and the maintenance task; the full scan reads every row and checks each is there once.",
    "RowLevelCost": "A prepared IcebergBolt (as DedupCost's: Kafka source positions, unpartitioned table, HadoopCatalog "
    "on local disk, a commit every `batch` records) in append, upsert and changelog modes (key `c0`, the table's "
    "identifier field), on the same tuples, format version as shown. Changelog reads each tuple's Debezium operation "
    "(`c` for a key's first change, `u` for a later one) and its sequence (the Kafka offset); every mode gets the same "
    "tuples, operation included. `updates`: the share of the changes that "
    "repeat a key already written (`UpsertKeys` in bench/rows; the rest bring new keys), so a run ends with about "
    "(100 − updates) % of its rows as distinct keys. cpu-ns/record: the executing thread's CPU (the commits run on "
    "the bolt's commit thread); `upsert/append per cpu-s` and `changelog/append per cpu-s` are its paired ratios. per-cpu-s and records/s: records per "
    "process CPU second and per wall second from the first tuple until every tuple is acked (commits, GC and the "
    "JIT included), the measure FlinkUpsertPeer uses. Each repetition runs the three modes, in an order rotated by "
    "one each repetition.",
    "RowLevelReadCost": "Our sink in upsert mode commits `commits` batches of `changes/commit` changes (keys from "
    "`UpsertKeys`, `updates` of them repeating a key) to a v2 table; the baseline holds the same final rows, one per "
    "key, appended in one commit (the shape a compaction leaves). Each table is read whole by Iceberg's generic "
    "reader (`IcebergGenerics.read(table).build()`, deletes applied, planning included), the two alternating, and "
    "checked row for row. `delete files opened per scan`: the delete files the scan's tasks carry, summed over the "
    "data files: the generic reader opens each again for every data file, so it grows with the square of the "
    "commits. `upsert compacted`: the same changes written to a third table, then one pass of the maintenance "
    "module's compaction (`DataCompaction`: Iceberg's bin-pack planner with its defaults, deletes applied while "
    "rewriting), scanned beside the other two.",
    "FlinkUpsertPeer": "Flink 1.20 MiniCluster as FlinkPeer's (parallelism 1, a checkpoint = commit every 1 s, "
    "HadoopCatalog, Parquet), IcebergSink with `equalityFieldColumns(c0)` and `upsert(true)` against IcebergSink "
    "appending, on the rows RowLevelCost writes at the same `rows` (the same `UpsertKeys` and values; "
    "`SameRowsAsFlinkPeerTest` and `FlinkUpsertPeerRowsTest` pin their digest). The append table has no identifier "
    "field (Flink's sink would take it as an equality field and key and track every row). Each repetition runs both "
    "modes in one process, in alternating order; the warm-up repetition's upsert table is read back and checked. "
    "per-cpu-s: records per process CPU second from the first row to the job's end.",
    "MapperBenchmark": "JMH, the record mappers per tuple on 5- and 50-column schemas (long, string, double, "
    "timestamptz and int columns in turn), operations per microsecond of wall time. Baselines of the same run: "
    "`positionalCopy` builds the record by copying the tuple's values by position, with no name lookup and no "
    "conversion (the floor any mapper pays); `byNameEachTuple` looks every column up by name on every tuple and "
    "converts (what the field-name mapper would cost without its per-layout resolution); `jacksonParseOnly` parses "
    "the JSON document into a tree and nothing else (the floor of the json mapper). Wall-time figures on a loaded "
    "machine are noisy; the by-hand comparisons below were timed in thread CPU.",
    "KernelVsLimit": "Records/s through a prepared IcebergBolt (real TopologyContext in a worker's distributed mode, "
    "real tuples, counting collector; WAL + append + ack per batch) against Iceberg's own writers (GenericFileWriterFactory; its internal-model writer for `limit internal rows`) under "
    "FanoutDataWriter writing the same rows, one AppendFiles per batch (commit included), HadoopCatalog on local disk (through Hadoop's RawLocalFileSystem, as "
    "every contender of every suite: no `.crc` files, one `chmod` fork a file instead of two). "
    "`pool` is how many rows each side builds ahead and reads over and over. "
    "`limit` writes pre-built records (the writer alone, the issue's limit); `limit building records` builds each "
    "record from the tuple's values first, as a program using Iceberg's generic writer without Storm must; "
    "`limit internal rows` feeds pre-built internal rows to Iceberg's internal-model Parquet writer (`InternalWriter`, "
    "which the kernel uses for the field-name mapper), the fastest writer for these rows. "
    "`per-thread-cpu-s` divides by the measuring thread's CPU time instead of wall time. Each repetition runs the "
    "variants back to back, each repetition starting with another variant, so the paired ratios compare figures "
    "taken minutes apart at most and no variant always runs first. Partitions: "
    "bucket(16, c0). `kernel without row checks` is the kernel without the check every sink makes before a record "
    "is written, of what the file writer would refuse part-way through its row (see [MAPPING.md](MAPPING.md), "
    "\"Errors\"): one class check per column, and per element of a list or map, built once per schema; `kernel` "
    "against it is what the check costs.",
    "EndToEnd": "LocalCluster, 1 spout task into 1 bolt task, 1 acker, timed first emit to last ack; IcebergBolt "
    "commits every `batch` records to a HadoopCatalog. per-cpu-s: records per second of process CPU time. "
    "`iceberg-bolt N records/tuple`: IcebergBolt with a multi-record mapper behind a spout whose tuples each carry N "
    "rows' values in one field (max spout pending 2 × batch / N tuples, so as many records in flight); the bench's "
    "mapper builds a generic record per row and parses nothing, so the figure is the sink's and Storm's, not a payload "
    "format's (the `json-array` mapper adds Jackson's parsing, about what the `json` mapper costs a record, "
    "MapperBenchmark). `iceberg-bolt 1 records/tuple` is the multi-record path at one record a tuple, against the "
    "one-record path (`iceberg-bolt`): it writes generic records rather than internal rows and allocates a list a "
    "tuple. Each repetition runs every variant on the same rows, so ratios are paired by repetition; the paired "
    "medians are steadier than the ratio of the medians. `warm`: the same run's second half only, from the middle "
    "tuple's emit to the last ack (repetition 0 has already warmed the JVM); `warm jit-ms`: what the JIT compiled "
    "in that half, near 0 once compilation has settled. FlinkPeer measures its warm half the same way.",
    "StormSettings": "Storm's settings for a sink that acks in bursts (issue #34): EndToEnd's two topologies "
    "(1 spout task, 1 bolt task, the acking bolt or IcebergBolt unpartitioned, a commit every `batch` records), "
    "under Storm 2.8.3's defaults and under one setting changed at a time: `bolt-wait`/`spout-wait=park-100us` set "
    "`topology.bolt.wait.strategy` or `topology.spout.wait.strategy` to `WaitStrategyPark` (100 µs park) instead of "
    "the default `WaitStrategyProgressive`; `producer-batch=N` and `transfer-batch=N` set "
    "`topology.producer.batch.size` and `topology.transfer.batch.size` (default 1; flush tuples every 1 ms once "
    "either is above 1), the producer batch with `topology.executor.receive.buffer.size` above twice the pending "
    "tuples, as the sinks require; `ackers=2` sets `topology.acker.executors` to 2 (default here 1); `max-pending=Nx-batch` "
    "sets `topology.max.spout.pending` to N × batch (default here 2 × batch, EndToEnd's). Each repetition runs every "
    "variant with both sinks, in an order rotated by one each repetition; each ratio is to the same sink under the "
    "defaults, paired by repetition. per-cpu-s: records per process CPU second, the figure to read on a shared "
    "machine; records/s (wall) is noisier. The whole topology runs in one worker, so the transfer batch (between "
    "workers) only adds flush tuples here. Under Storm's default 32,768-slot receive queues IcebergBolt's "
    "producer-batch runs stalled (1000: every time; 100: one repetition of two, 56 of 200,000 rows never acked; "
    "spout, bolt and acker idle in their wait strategies, past the harness's 5-minute deadline) while the acking "
    "bolt's ran: a commit's acks filled a queue, and Storm 2.8 strands tuples in its producer batches then.",
    "TridentEndToEnd": "LocalCluster, each repetition runs four sinks back to back on the same rows, 1 task per "
    "component, 1 acker, HadoopCatalog: the acking bolt and IcebergBolt behind a spout of one message id per row (max "
    "spout pending 2 × batch), and behind a Trident batch spout of `batch` rows per transaction (2 transactions in "
    "flight, `topology.trident.batch.emit.interval.millis` 10) `partitionBy(c0).partitionPersist(IcebergStateFactory)` "
    "(`trident-state`) and `IcebergTrident.persist` (`trident-persist`, one writer partition and the global committer). "
    "Timed from the first emit to the last ack (for Trident, the spout's ack of the last committed transaction). "
    "per-cpu-s: records per second of process CPU time. Paired ratios compare the sinks of one repetition. `warm`, "
    "`warm per-cpu-s`: every sink over the same run's second half only, from the middle row's emit (for Trident, "
    "inside the transaction that carries it) to the last ack, as EndToEnd measures it (repetition 0 has already "
    "warmed the JVM); `warm jit-ms`: what the JIT compiled in that half, near 0 once compilation has settled.",
    "DedupCost": "Nanoseconds per record through a prepared IcebergBolt (as KernelVsLimit's kernel: 5 columns, "
    "unpartitioned table, 100,000-record batches committed to a HadoopCatalog), with `withSourcePositions` and without, "
    "on the same tuples: the 5 columns plus `topic`, `partition` and `offset` as KafkaSpout's default record translator "
    "emits them (the table has no column for the three, so the mapper ignores them in both variants). The positions "
    "are read as the `kafka` provider reads them (the bench's `FixedIdentityPositions`), with a fixed topic id instead of a broker's "
    "(the one admin call per task and topic is all it leaves out). Offsets are nine digits and never repeat, so nothing "
    "is skipped: measured is the check and the bookkeeping every tuple pays. `kafka-partitions=P run=R`: the records "
    "come from P Kafka partitions in runs of R (1: round robin, the worst case; KafkaSpout emits what a poll returns, "
    "up to 500 records a partition by default). cpu-ns: the measuring thread's CPU. "
    "Each repetition runs both variants, in alternating order. `refresh cpu-us/batch-open`: reading the positions the "
    "sink's newest snapshot recorded (one nine-digit range per partition), which a task does whenever a batch opens. "
    "`summary bytes`: the positions' summary a commit writes into the snapshot (one range a partition without gaps).",
    "TridentMemory": "One long Trident run per sink in a JVM of its own with the -Xmx shown (LocalCluster included), "
    "5 columns through the default field-name mapper; live heap after full GCs when a tenth of the rows are committed "
    "and when all are (before the topology is killed). growth-bytes-per-1000-tuples: their difference over the tuples "
    "in between, per 1000 tuples; bounded memory means it stays near zero whatever the row count.",
    "FlinkPeer": "Flink 1.20 MiniCluster, parallelism 1 (one slot), checkpoint (= commit) every 1 s, same rows, "
    "HadoopCatalog, format v2, Parquet. The source emits the rows, then stays up until a checkpoint taken after its "
    "last row has completed, so both sinks commit every row before the job ends (timed from the first row to the "
    "job's end, that wait included). Rates count the rows the table holds after the job "
    "(rows-committed-pct says how many of those sent).",
    "CommitLatency": "One append of one data file to a HadoopCatalog table on local disk, the median commit's "
    "wall time over 300 commits to a fresh table (manifests merge past 100): `committing-thread` as the sink "
    "commits (the append's manifest work on the committing thread), `iceberg-worker-pool` Iceberg's default "
    "(its shared worker pool, which waits for its tasks by polling every 10 ms). One data-manifest write "
    "still goes through the pool in both (Iceberg 1.11 does not let a caller choose its executor).",
    "CommitScaling": "LocalCluster, JdbcCatalog on SQLite; every writer seals on age (1 s); the split sink's "
    "committer commits every 1 s. conflicts: CommitFailedException from the catalog (Iceberg then refreshes and "
    "retries); commit-attempts: every catalog commit; rows-failed: rows failed back to the spout and replayed. "
    "The ratios show what concurrent commits cost: every IcebergBolt task commits on its own and conflicts with the "
    "others (Iceberg refreshes and retries; a batch that runs out of retries fails and replays), while the split "
    "sink's committer makes one commit a second whatever the writer count.",
    "PartitionGrouping": "LocalCluster, 1 spout task into 8 IcebergWriterBolt tasks and 1 IcebergCommitterBolt, "
    "JdbcCatalog on SQLite, 5 columns in bucket(p, c0); writers seal every 2 s, the committer commits every 2 s. "
    "`grouping`: customGrouping(IcebergPartitionGrouping); `shuffle`: shuffleGrouping. files/commit: added data files "
    "per snapshot; files/partition: data files per partition over the run; per-cpu-s: records per second of process "
    "CPU time; heap-after-gc: the largest heap used after any collection during the run (LocalCluster included). "
    "Each repetition runs both variants back to back, starting with the other variant each time. How to read it: "
    "behind the grouping each writer holds its own partitions, so a commit holds one file per partition, against up "
    "to writers × partitions behind a shuffle; at 128 partitions a shuffle keeps up to 1,024 Parquet files open at "
    "about 2–3 MiB each, so its heap can sit at `-Xmx` after every collection and the collector takes the CPU. The "
    "records per CPU second include the grouping's own cost in the spout (mapping each tuple's partition column and "
    "hashing its key). heap-after-gc includes what earlier runs in the JVM left uncollected, so it is noisy: read "
    "its paired ratio.",
    "Soak": "LocalCluster, 1 PacedSpout task into IcebergBolt (`iceberg-bolt`) or into 1 IcebergWriterBolt and 1 "
    "IcebergCommitterBolt (`split-sink`), 1 acker, HadoopCatalog, 5 columns unpartitioned, a fresh table for each run. "
    "The sink seals every 50,000 records or every second (tick 1 s); the split sink's committer commits every second. "
    "Each sink is first run unthrottled (20 s of warm-up, 20 s measured) for its peak, then for the minutes shown at "
    "80 % of it. A row a minute: records/s acked; live heap after a full GC forced at the minute's end (LocalCluster "
    "included); open file descriptors of the process; commits/s and the commit latency's p50 and p99 from the sink's "
    "own `iceberg-commit-latency` timer (Storm's default codahale reservoir, weighted to the last five minutes or so); "
    "the largest `iceberg-oldest-pending-age-ms` sampled every second; the machine's one-minute load average (2 cores, "
    "shared with other builds: read it beside every other figure). Flat: the last minute against the second (the first "
    "holds the start), within the rule shown, and no figure worse at every minute from the second on. Rates differ "
    "between sinks and runs because each peak is measured on the machine at that moment: flatness, not the rate, is "
    "the claim. On a shared machine a minute's load average above about 20 slows commits and ages pending batches "
    "whatever the sink does, so read a not-flat verdict beside the load-average column. The split sink commits about "
    "every 2 s here: its writer seals on age (1 s) and the committer commits the descriptors it holds every second.",
    "SnapshotLookup": "The snapshot-history walks the sink makes, timed (µs a call, median of 25 rounds after a warm-up) "
    "on a HadoopCatalog table grown by empty fast appends (manifest lists kept in memory to build it quickly), every "
    "snapshot seconds old, so a bound by time alone cuts nothing. `find landed`/`find not landed`: the settler's lookup "
    "of a commit's id (and the same-id retry's validator), stopping at the branch head the attempt read; `restart (time "
    "bound only)`: a restarting task describing a stale WAL entry, which walks the last ten minutes of commits; "
    "`positions`: a batch open reading the sink's committed source positions, its newest commit at the head or at the "
    "table's first snapshot (`read again`: the same task's next read, which walks only the snapshots committed since "
    "its last walk); `load table`: Iceberg parsing the table's metadata, which every refresh after a commit "
    "pays (for scale). What should not grow with the history: `find landed`, `find not landed` (they stop at the "
    "branch head the attempt read; see [PROTOCOL.md](PROTOCOL.md), \"How far the lookups walk\"), `positions sink "
    "at head` and `read again`. What does: a restart's time-bounded walk (once per stale WAL entry), a first read "
    "whose sink last committed thousands of other writers' commits ago, and Iceberg's own `load table`, which is "
    "why a busy table needs its snapshots expired (`expireSnapshots`) whatever the sink does. Each figure is one "
    "run's median, not repeated: read it as ±5× on a loaded machine; the walks that scale differ by 100× to "
    "10,000× between the sizes.",
    "RoutingMemory": "One routing `IcebergBolt` task in a JVM of its own with the -Xmx shown writes `tables` tables "
    "with `withMaxOpenTables(max-open-tables)`, in groups of that many (`records-per-visit` records to each table of "
    "a group, round robin, then the next group), so each group switch evicts the whole previous group; every record "
    "is acked. `peak-live-heap-MiB`: the live heap at a group's end (that many open tables, each with its catalog "
    "client, metadata and one open Parquet file of 5 columns); `live-per-open-table-KiB`: that less the heap "
    "before, per open table; `peak-after-gc-MiB`: the largest heap after a collection the JVM itself ran (garbage "
    "of evicted tables included). Bounded memory means the live heap is what the bound implies, whatever the number "
    "of tables routed.",
    "BatchMemory": "One batch in a JVM of its own with the -Xmx shown, every record a fresh tuple as in a worker; "
    "heap as used after GC. live-heap-at-10pct/90pct: live heap (after full GCs) a tenth and nine tenths into the "
    "batch; held-bytes-per-tuple: their difference per tuple (the held ack ids spill to a file beyond about 5.5 MiB, "
    "so what is left is the open Parquet file's growing row group). heap-per-open-file: slope of the open batch's "
    "live heap between 1 and 100 partitions, 1000 records each.",
}


SOAK_COLUMNS = ["records/s", "live-heap-mib", "open-fds", "commits/s", "commit-p50-ms", "commit-p99-ms",
                "oldest-pending-age-ms", "load-average"]


MAINTENANCE_METRICS = ["metadata.json KB", "commit p50", "commit p99", "data files/partition",
                       "data files/partition after the pass due", "manifests", "heap used",
                       "full scan", "data files a commit", "maintenance passes", "maintenance failures"]


def maintenance_hour_section(path):
    """The MaintenanceHour suite: per params, each figure per ten-minute window, unmaintained → maintained."""
    windows = defaultdict(dict)  # (params, metric) -> {(maintained?, window): (value, unit)}
    with open(path) as f:
        for suite, params, variant, rep, value, unit in csv.reader(f):
            if suite == "MaintenanceHour":
                state, metric = variant.split(" ", 1)
                windows[(params, metric)][(state, int(rep))] = (float(value), unit)
    out = []
    for params in sorted({p for p, _ in windows}, key=natural):
        reps = sorted({w for (p, _), d in windows.items() if p == params for _, w in d})
        out.append(f"### {params}\n\nEach cell: without maintenance → with it.\n")
        out.append("| figure | " + " | ".join(f"minute {w * 10}" for w in reps) + " | with/without, last window |")
        out.append("|---|" + "---:|" * len(reps) + "---:|")
        for metric in MAINTENANCE_METRICS:
            d = windows.get((params, metric))
            if not d:
                continue
            unit = next(iter(d.values()))[1]
            cells = []
            for w in reps:
                before, after = d.get(("unmaintained", w)), d.get(("maintained", w))
                cells.append(f"{fmt(before[0]) if before else '–'} → {fmt(after[0]) if after else '–'}")
            before, after = d.get(("unmaintained", reps[-1])), d.get(("maintained", reps[-1]))
            ratio = "–"
            if before and after and before[0]:
                r = after[0] / before[0]
                ratio = f"**{r:.2f}×**" if r >= 0.1 else f"**{r:.2g}×**"
            out.append(f"| {metric} ({unit}) | " + " | ".join(cells) + f" | {ratio} |")
        out.append("")
    return "\n".join(out)


def soak_section(path):
    """The Soak suite as a table a minute per sink, then each figure's flatness verdict."""
    minutes = defaultdict(dict)  # params -> {(minute, variant): value}
    single = defaultdict(dict)  # params -> {variant: (value, unit)}
    with open(path) as f:
        for suite, params, variant, rep, value, unit in csv.reader(f):
            if suite != "Soak":
                continue
            if rep == "0":
                single[params][variant] = (float(value), unit)
            else:
                minutes[params][(int(rep), variant)] = float(value)
    out = []
    for params in sorted(minutes):
        peak = single[params].get("peak records/s", (0, ""))[0]
        target = single[params].get("target records/s", (0, ""))[0]
        verdicts = {v[len("flat "):]: (value, unit) for v, (value, unit) in single[params].items() if v.startswith("flat ")}
        flat = all(value == 1 for value, _ in verdicts.values())
        out.append(f"### {params}: **{'flat' if flat else 'not flat'}**\n")
        out.append(f"Peak {fmt(peak)} records/s, held at {fmt(target)} records/s.\n")
        out.append("| minute | " + " | ".join(SOAK_COLUMNS) + " |")
        out.append("|---:|" + "---:|" * len(SOAK_COLUMNS))
        for minute in sorted({m for m, _ in minutes[params]}):
            cells = [fmt(minutes[params].get((minute, c), float("nan"))) for c in SOAK_COLUMNS]
            out.append(f"| {minute} | " + " | ".join(cells) + " |")
        out.append("")
        out.append("| figure | rule | verdict |\n|---|---|---|")
        for variant, (value, rule) in verdicts.items():
            out.append(f"| {variant} | {rule} | {'flat' if value == 1 else '**not flat**'} |")
        out.append("")
    return "\n".join(out)


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "unknown memory"
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            mem = f"{kib / 1024 / 1024:.1f} GiB RAM"
    except OSError:
        pass
    nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    uname = os.uname()
    return f"{nproc} cores ({cpu}), {mem}, {uname.sysname} {uname.release}, {java}"


def load(args):
    """(suite, params, variant) -> (values, unit, reps): values in the order written, reps their repetitions."""
    rows = defaultdict(lambda: ([], "", []))
    if args.csv and os.path.exists(args.csv):
        with open(args.csv) as f:
            for suite, params, variant, rep, value, unit in csv.reader(f):
                values, _, reps = rows[(suite, params, variant)]
                values.append(float(value))
                reps.append(rep)
                rows[(suite, params, variant)] = (values, unit, reps)
    if args.jmh and os.path.exists(args.jmh):
        for r in json.load(open(args.jmh)):
            cls, method = r["benchmark"].split(".")[-2:]
            params = " ".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
            raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
            rows[(cls, params, method)] = (raw, r["primaryMetric"]["scoreUnit"], [str(i) for i in range(len(raw))])
    return rows


def fmt(x):
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def spread(values):
    return f"{fmt(min(values))}–{fmt(max(values))}" if len(values) > 1 else "(1 run)"


def paired_ratios(row, baseline):
    """Ratios of figures measured side by side in the same repetition, when both sides have each repetition once."""
    values, _, reps = row
    base_values, _, base_reps = baseline
    if len(values) < 2 or len(set(reps)) != len(reps) or sorted(reps) != sorted(base_reps):
        return None
    base = dict(zip(base_reps, base_values))
    if not all(base.values()):
        return None
    return [v / base[r] for v, r in zip(values, reps)]


def natural(key):
    """Sorts numbers inside strings by value, so pool=8192 comes before pool=65536."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", str(key))]


def param(params, key):
    m = re.search(rf"\b{key}=(\S+)", params)
    return m.group(1) if m else None


def ratio(rows, suite, params, variant, base):
    """(ratio, paired ratios or None) of a variant against its baseline at the same params, or None."""
    a, b = rows.get((suite, params, variant)), rows.get((suite, params, base))
    if not a or not b or not statistics.median(b[0]):
        return None
    paired = paired_ratios(a, b) if suite in PAIRED else None
    return statistics.median(a[0]) / statistics.median(b[0]), paired


def targets_section(rows):
    """Each issue's target with the figure this run measured and whether it is met."""
    out = ["## Targets\n",
           "Computed from this run's CSV: the ratio is the median of the ratios paired by repetition (both "
           "variants measured back to back in each), or the ratio of the medians where the suite does not pair "
           "them. Where a target is missed, the hand-written sections after the generated part say what the "
           "profile shows and what was tried.\n",
           "| issue | target | params | measured | bound | verdict |", "|---|---|---|---:|---:|---|"]
    for issue, what, suite, pattern, variant, base, bound in TARGETS:
        matched = sorted({p for (s, p, v) in rows if s == suite and v == variant and re.fullmatch(pattern, p)}, key=natural)
        if not matched:
            out.append(f"| {issue} | {what} | | not measured in this run | {f'≥ {bound}×' if bound else ''} | **not measured** |")
            continue
        for params in matched:
            r = ratio(rows, suite, params, variant, base)
            if r is None:
                out.append(f"| {issue} | {what} | {params} | `{base}` not measured | | **not measured** |")
                continue
            of_medians, paired = r
            figure = statistics.median(paired) if paired else of_medians
            how = (f"**{figure:.2f}×** (paired, {min(paired):.2f}–{max(paired):.2f}; ratio of medians {of_medians:.2f}×)"
                   if paired else f"**{figure:.2f}×** (ratio of medians)")
            verdict = "no fixed bound" if bound is None else ("met" if figure >= bound else "**missed**")
            out.append(f"| {issue} | {what} | {params} | {how} | {f'≥ {bound}×' if bound else ''} | {verdict} |")
    soaked = sorted({p for (s, p, v) in rows if s == "Soak" and v.startswith("flat ")})
    if soaked:
        for params in soaked:
            verdicts = {v: rows[("Soak", params, v)][0] for (s, p, v) in rows if s == "Soak" and p == params and v.startswith("flat ")}
            bad = [v[len("flat "):] for v, values in verdicts.items() if not all(x == 1 for x in values)]
            out.append(f"| #21 | Soak (§4): every figure flat for the run's minutes | {params} | "
                       f"{'all flat' if not bad else 'not flat: ' + ', '.join(bad)} | | {'met' if not bad else '**missed**'} |")
    else:
        out.append("| #21 | Soak (§4): every figure flat for the run's minutes | | not measured in this run | | **not measured** |")
    return "\n".join(out) + "\n"


def suite_section(rows, suite):
    out = ["| params | variant | median | spread | n | unit | ratio |", "|---|---|---:|---:|---:|---|---|"]
    for (s, params, variant), (values, unit, _) in sorted(rows.items(), key=lambda item: natural(item[0])):
        if s != suite:
            continue
        bases = BASELINES.get(suite, {}).get(variant, ())
        ratios = []
        for base in (bases,) if isinstance(bases, str) else bases:
            r = ratio(rows, s, params, variant, base)
            if r is None:
                continue
            text = f"**{r[0]:.2f}×** {base}"
            if r[1]:
                text += f" (paired by repetition: median {statistics.median(r[1]):.2f}×, {min(r[1]):.2f}–{max(r[1]):.2f})"
            ratios.append(text)
        out.append(f"| {params} | {variant} | {fmt(statistics.median(values))} | {spread(values)} | {len(values)} | {unit} "
                   f"| {'; '.join(ratios)} |")
    return "\n".join(out) + "\n"


def flink_section(rows):
    """Each way of writing with Storm against both Flink sinks, per process CPU second and per second."""
    medians = {k: statistics.median(v[0]) for k, v in rows.items()}
    flink = {}  # (partitions, variant) -> median
    for (s, p, v), m in medians.items():
        if s == "FlinkPeer":
            flink[(param(p, "partitions"), v)] = m
    if not flink:
        return ""
    out = ["## Storm against Flink\n",
           "Both on the same machine in the same run; the JVM of each may use every core, so per-core figures divide "
           "by process CPU time rather than by a core count. The Storm figures are medians of the EndToEnd and "
           "TridentEndToEnd sections, the Flink ones of FlinkPeer's (which counts the rows each table holds after "
           "the job); these ratios are of medians from different processes, so they are noisier than the paired "
           "ratios within a suite.\n",
           "| Flink sink | partitions | records per process CPU second | records/s |", "|---|---|---:|---:|"]
    for sink in FLINK_SINKS:
        for partitions in sorted({p for p, _ in flink}, key=natural):
            cpu, wall = flink.get((partitions, sink + " per-cpu-s")), flink.get((partitions, sink))
            if cpu is not None or wall is not None:
                out.append(f"| {sink[len('flink-'):]} | {partitions} | {fmt(cpu) if cpu else ''} | {fmt(wall) if wall else ''} |")
    out += ["", "| Storm mode | partitions | records per process CPU second | / FlinkSink | / IcebergSink "
            "| records/s | / FlinkSink | / IcebergSink |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for mode, suite, variant in FLINK_MODES:
        storm = {}
        for (s, p, v), m in medians.items():
            if s == suite and v in (variant, variant + " per-cpu-s"):
                storm[(param(p, "partitions"), v)] = m
        for partitions in sorted({p for p, _ in storm}, key=natural):
            cells = []
            for suffix in (" per-cpu-s", ""):
                figure = storm.get((partitions, variant + suffix))
                cells.append(fmt(figure) if figure is not None else "")
                for sink in FLINK_SINKS:
                    peer = flink.get((partitions, sink + (" warm" if variant.endswith(" warm") else "") + suffix))
                    cells.append(f"**{figure / peer:.2f}×**" if figure is not None and peer else "")
            out.append(f"| {mode} | {partitions} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def row_level_flink_section(rows):
    """Upsert against append for our sink and for Flink's on the same rows, and our upsert against Flink's."""
    def paired_median(suite, params, variant, base):
        r = ratio(rows, suite, params, variant, base)
        if r is None:
            return None
        return statistics.median(r[1]) if r[1] else r[0]

    def key(params):
        return tuple(param(params, k) for k in ("columns", "rows", "updates", "format"))

    ours = {key(p): p for (s, p, v) in rows if s == "RowLevelCost" and v == "upsert per-cpu-s"}
    out = []
    for params in sorted({p for (s, p, v) in rows if s == "FlinkUpsertPeer"}, key=natural):
        storm = ours.get(key(params))
        if storm is None:
            continue
        x = paired_median("RowLevelCost", storm, "upsert per-cpu-s", "append per-cpu-s")
        x_thread = statistics.median(rows[("RowLevelCost", storm, "upsert/append per cpu-s")][0]) \
            if ("RowLevelCost", storm, "upsert/append per cpu-s") in rows else None
        changelog = paired_median("RowLevelCost", storm, "changelog per-cpu-s", "append per-cpu-s")
        y = paired_median("FlinkUpsertPeer", params, "flink-IcebergSink upsert per-cpu-s", "flink-IcebergSink append per-cpu-s")
        med = {name: statistics.median(rows[k][0]) for name, k in (
            ("ours", ("RowLevelCost", storm, "upsert per-cpu-s")),
            ("ours append", ("RowLevelCost", storm, "append per-cpu-s")),
            ("flink", ("FlinkUpsertPeer", params, "flink-IcebergSink upsert per-cpu-s")),
            ("flink append", ("FlinkUpsertPeer", params, "flink-IcebergSink append per-cpu-s"))) if k in rows}
        cells = [f"**{x:.2f}×**" if x else "", f"{x_thread:.2f}×" if x_thread else "",
                 f"{changelog:.2f}×" if changelog else "", f"**{y:.2f}×**" if y else ""]
        for a, b in (("ours", "flink"), ("ours append", "flink append")):
            cells.append(f"**{med[a] / med[b]:.2f}×**" if a in med and med.get(b) else "")
        columns, n, updates, version = key(params)
        out.append(f"| {columns} | {n} | {updates} | {version} | " + " | ".join(cells) + " |")
    if not out:
        return ""
    return "\n".join([
        "## Row-level: Storm against Flink\n",
        "Upsert against append on the same rows, for our sink (RowLevelCost: an IcebergBolt driven directly) and for "
        "Flink's IcebergSink (FlinkUpsertPeer: a whole MiniCluster job), each pair measured in one process and paired by "
        "repetition; then our upsert against Flink's upsert (and our append against Flink's append) in records per "
        "process CPU second, a ratio of medians from two processes. FlinkUpsertPeer measures Flink's upsert mode only (Flink's sink takes a changelog as each row's RowKind; not measured here). Our side has no spout, acker or transport and "
        "Flink's has its source, keyBy and checkpoints, so the last two columns favour ours; the paired ratios within "
        "each sink are the fair comparison.\n",
        "| columns | rows | updates | format | ours upsert/append per process CPU-s | ours, per thread CPU-s "
        "| ours changelog/append per process CPU-s | Flink upsert/append per process CPU-s | our upsert / Flink's upsert "
        "| our append / Flink's append |",
        "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"] + out) + "\n"


def included(directory):
    """The hand-written sections: every .md file of the directory in the order of its name, license comment dropped."""
    if not os.path.isdir(directory):
        return []
    texts = []
    for name in sorted(n for n in os.listdir(directory) if n.endswith(".md")):
        with open(os.path.join(directory, name)) as f:
            text = f.read()
        text = re.sub(r"\A\s*<!--.*?Licensed to the Apache Software Foundation.*?-->\s*", "", text, flags=re.S)
        texts.append((name, text.strip() + "\n"))
    return texts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv")
    ap.add_argument("--jmh")
    ap.add_argument("--commands")
    ap.add_argument("--wall", type=int)
    ap.add_argument("--note", action="append", default=[],
                    help="a line for the header, e.g. where the run departed from bench/run.sh (repeatable)")
    ap.add_argument("--include", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "benchmarks"),
                    help="the directory of hand-written sections (default docs/benchmarks)")
    args = ap.parse_args()
    rows = load(args)
    hand = included(args.include)

    print("# Benchmarks\n")
    print("Generated by `bench/run.sh` (`bench/report.py`); do not edit by hand. It has two parts:\n")
    departed = " (the notes under the run's name say where this one departed from that)" if args.note else ""
    print("- **Generated from one run** (everything down to \"Storm against Flink\"): the issues' targets, a "
          "section a suite and the Storm-against-Flink table, all from the run's CSV named below" + departed + ". Figures are "
          "medians over the measured repetitions (warm-up repetitions are not reported), spread is min–max, n the "
          "number of repetitions, and every ratio compares two figures measured in the same run.")
    print("- **Written by hand** (every section after it): analysis that `bench/run.sh` does not repeat (profiles, "
          "before-and-after runs of two builds), included verbatim from `docs/benchmarks/*.md` in the order of "
          "their file names, each dated in its heading. Edit those files, not this one"
          + (": " + ", ".join(f"`{name}`" for name, _ in hand) if hand else "") + ".\n")
    print(f"- Machine: {machine()}")
    stamp = re.search(r"(\d{8}T\d{6}Z)", args.csv or args.jmh or "")
    print(f"- Run started: {stamp.group(1) if stamp else 'unknown'}"
          + (f", wall time {args.wall // 60} min {args.wall % 60} s" if args.wall else ""))
    print(f"- Raw results: `{args.csv}`, `{args.jmh}`")
    for note in args.note:
        print(f"- {note}")
    print()
    if args.commands and os.path.exists(args.commands):
        print("Commands (from the repository root, after `mvn -B -q package -DskipTests -Pbench,flink-peer -pl bench,bench/flink-peer -am`):\n")
        print("| suite | wall s | command |\n|---|---:|---|")
        with open(args.commands) as f:
            for line in f:
                suite, secs, command = line.rstrip("\n").split("\t", 2)
                print(f"| {suite} | {secs} | `{command}` |")
        print()

    print(targets_section(rows))
    suites = {k[0] for k in rows}
    for suite in [s for s in SUITE_ORDER if s in suites] + sorted(suites - set(SUITE_ORDER)):
        print(f"## {suite}\n")
        if suite in SUITE_NOTES:
            print(SUITE_NOTES[suite] + "\n")
        if suite == "Soak":
            print(soak_section(args.csv))
        elif suite == "MaintenanceHour":
            print(maintenance_hour_section(args.csv))
        else:
            print(suite_section(rows, suite))
    print(flink_section(rows))
    print(row_level_flink_section(rows))
    for _, text in hand:
        print(text)


if __name__ == "__main__":
    main()
