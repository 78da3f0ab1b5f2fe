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
measured in the same run (BASELINES, CROSS), so the figures survive a noisy, shared machine better
than absolute numbers do.
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
from collections import defaultdict

# suite -> {variant: the variant of the same suite and params it is compared with}
BASELINES = {
    "MapperBenchmark": {
        "byNameEachTuple": "positionalCopy",
        "fieldNameMapper": "positionalCopy",
        "jsonMapper": "jacksonParseOnly",
    },
    "KernelVsLimit": {
        "kernel": ("limit", "limit building records", "limit internal rows"),
        "limit internal rows": "limit",
        "limit building records": "limit",
        "kernel per-thread-cpu-s": "limit per-thread-cpu-s",
    },
    "EndToEnd": {
        "iceberg-bolt": "acking-bolt",
        "iceberg-bolt per-cpu-s": "acking-bolt per-cpu-s",
        **{f"iceberg-bolt {n} records/tuple": ("acking-bolt", "iceberg-bolt") for n in (1, 10, 100)},
        **{f"iceberg-bolt {n} records/tuple per-cpu-s": ("acking-bolt per-cpu-s", "iceberg-bolt per-cpu-s")
           for n in (1, 10, 100)},
    },
    "TridentEndToEnd": {
        "iceberg-bolt": "acking-bolt",
        "trident-state": ("acking-bolt", "iceberg-bolt"),
        "trident-persist": ("acking-bolt", "iceberg-bolt", "trident-state"),
        "iceberg-bolt per-cpu-s": "acking-bolt per-cpu-s",
        "trident-state per-cpu-s": ("acking-bolt per-cpu-s", "iceberg-bolt per-cpu-s"),
        "trident-persist per-cpu-s": ("acking-bolt per-cpu-s", "iceberg-bolt per-cpu-s", "trident-state per-cpu-s"),
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
    "CommitScaling": {
        "split-sink snapshots/s": "iceberg-bolt snapshots/s",
        "split-sink records/s": "iceberg-bolt records/s",
    },
}

# Suites whose repetitions run both variants back to back, so a repetition's two figures share the
# machine's weather and their ratio is steadier than the ratio of medians.
PAIRED = {"KernelVsLimit", "EndToEnd", "TridentEndToEnd", "DedupCost", "PartitionGrouping", "CommitLatency"}

# Comparisons across suites, matched on one parameter: (title, key, (suite, variant), (suite, variant)).
CROSS = [
    ("Storm alone (spout → acking bolt, no sink) against Flink FlinkSink, records per process CPU second", "partitions",
     ("EndToEnd", "acking-bolt per-cpu-s"), ("FlinkPeer", "flink-FlinkSink per-cpu-s")),
    ("Storm IcebergBolt against Flink FlinkSink, records per process CPU second", "partitions",
     ("EndToEnd", "iceberg-bolt per-cpu-s"), ("FlinkPeer", "flink-FlinkSink per-cpu-s")),
    ("Storm Trident IcebergTrident.persist against Flink FlinkSink, records per process CPU second", "partitions",
     ("TridentEndToEnd", "trident-persist per-cpu-s"), ("FlinkPeer", "flink-FlinkSink per-cpu-s")),
    ("Storm Trident IcebergStateFactory against Flink FlinkSink, records per process CPU second", "partitions",
     ("TridentEndToEnd", "trident-state per-cpu-s"), ("FlinkPeer", "flink-FlinkSink per-cpu-s")),
    ("Storm IcebergBolt, 10 records a tuple (MultiRecordMapper), against Flink FlinkSink, records per process CPU second",
     "partitions", ("EndToEnd", "iceberg-bolt 10 records/tuple per-cpu-s"), ("FlinkPeer", "flink-FlinkSink per-cpu-s")),
    ("Storm IcebergBolt, 100 records a tuple (MultiRecordMapper), against Flink FlinkSink, records per process CPU second",
     "partitions", ("EndToEnd", "iceberg-bolt 100 records/tuple per-cpu-s"), ("FlinkPeer", "flink-FlinkSink per-cpu-s")),
    ("Storm IcebergBolt against Flink FlinkSink, records per second", "partitions",
     ("EndToEnd", "iceberg-bolt"), ("FlinkPeer", "flink-FlinkSink")),
    ("Storm IcebergBolt, 10 records a tuple (MultiRecordMapper), against Flink FlinkSink, records per second",
     "partitions", ("EndToEnd", "iceberg-bolt 10 records/tuple"), ("FlinkPeer", "flink-FlinkSink")),
    ("Storm IcebergBolt, 100 records a tuple (MultiRecordMapper), against Flink FlinkSink, records per second",
     "partitions", ("EndToEnd", "iceberg-bolt 100 records/tuple"), ("FlinkPeer", "flink-FlinkSink")),
    ("Storm IcebergBolt against Flink IcebergSink (rows it committed), records per process CPU second", "partitions",
     ("EndToEnd", "iceberg-bolt per-cpu-s"), ("FlinkPeer", "flink-IcebergSink per-cpu-s")),
]

SUITE_NOTES = {
    "KernelVsLimit": "Records/s through a prepared IcebergBolt (real TopologyContext in a worker's distributed mode, "
    "real tuples, counting collector; WAL + append + ack per batch) against Iceberg's own writers (GenericFileWriterFactory; its internal-model writer for `limit internal rows`) under "
    "FanoutDataWriter writing the same rows, one AppendFiles per batch (commit included), HadoopCatalog on local disk. "
    "`pool` is how many rows each side builds ahead and reads over and over. "
    "`limit` writes pre-built records (the writer alone, the issue's limit); `limit building records` builds each "
    "record from the tuple's values first, as a program using Iceberg's generic writer without Storm must; "
    "`limit internal rows` feeds pre-built internal rows to Iceberg's internal-model Parquet writer (`InternalWriter`, "
    "which the kernel uses for the field-name mapper), the fastest writer for these rows. "
    "`per-thread-cpu-s` divides by the measuring thread's CPU time instead of wall time. Each repetition runs the "
    "variants back to back, each repetition starting with another variant, so the paired ratios compare figures "
    "taken minutes apart at most and no variant always runs first. Partitions: "
    "bucket(16, c0).",
    "EndToEnd": "LocalCluster, 1 spout task into 1 bolt task, 1 acker, timed first emit to last ack; IcebergBolt "
    "commits every `batch` records to a HadoopCatalog. per-cpu-s: records per second of process CPU time. "
    "`iceberg-bolt N records/tuple`: IcebergBolt with a multi-record mapper behind a spout whose tuples each carry N "
    "rows' values in one field (max spout pending 2 × batch / N tuples, so as many records in flight); the bench's "
    "mapper builds a generic record per row and parses nothing, so the figure is the sink's and Storm's, not a payload "
    "format's (the `json-array` mapper adds Jackson's parsing, about what the `json` mapper costs a record, "
    "MapperBenchmark). Each repetition runs every variant on the same rows, so ratios are paired by repetition.",
    "TridentEndToEnd": "LocalCluster, each repetition runs four sinks back to back on the same rows, 1 task per "
    "component, 1 acker, HadoopCatalog: the acking bolt and IcebergBolt behind a spout of one message id per row (max "
    "spout pending 2 × batch), and behind a Trident batch spout of `batch` rows per transaction (2 transactions in "
    "flight, `topology.trident.batch.emit.interval.millis` 10) `partitionBy(c0).partitionPersist(IcebergStateFactory)` "
    "(`trident-state`) and `IcebergTrident.persist` (`trident-persist`, one writer partition and the global committer). "
    "Timed from the first emit to the last ack (for Trident, the spout's ack of the last committed transaction). "
    "per-cpu-s: records per second of process CPU time. Paired ratios compare the sinks of one repetition.",
    "DedupCost": "Nanoseconds per record through a prepared IcebergBolt (as KernelVsLimit's kernel: 5 columns, "
    "unpartitioned table, 100,000-record batches committed to a HadoopCatalog), with `withSourcePositions` and without, "
    "on the same tuples: the 5 columns plus `topic`, `partition` and `offset` as KafkaSpout's default record translator "
    "emits them. The positions are read as the `kafka` provider reads them, with a fixed topic id instead of a broker's "
    "(the one admin call per task and topic is all it leaves out). Offsets are nine digits and never repeat, so nothing "
    "is skipped: measured is the check and the bookkeeping every tuple pays. `kafka-partitions=P run=R`: the records "
    "come from P Kafka partitions in runs of R (1: round robin, the worst case). cpu-ns: the measuring thread's CPU. "
    "Each repetition runs both variants, in alternating order. `refresh cpu-us/batch-open`: reading the positions the "
    "sink's newest snapshot recorded (one nine-digit range per partition), which a task does whenever a batch opens.",
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
    "retries); commit-attempts: every catalog commit; rows-failed: rows failed back to the spout and replayed.",
    "PartitionGrouping": "LocalCluster, 1 spout task into 8 IcebergWriterBolt tasks and 1 IcebergCommitterBolt, "
    "JdbcCatalog on SQLite, 5 columns in bucket(p, c0); writers seal every 2 s, the committer commits every 2 s. "
    "`grouping`: customGrouping(IcebergPartitionGrouping); `shuffle`: shuffleGrouping. files/commit: added data files "
    "per snapshot; files/partition: data files per partition over the run; per-cpu-s: records per second of process "
    "CPU time; heap-after-gc: the largest heap used after any collection during the run (LocalCluster included). "
    "Each repetition runs both variants back to back, starting with the other variant each time.",
    "Soak": "LocalCluster, 1 PacedSpout task into IcebergBolt (`iceberg-bolt`) or into 1 IcebergWriterBolt and 1 "
    "IcebergCommitterBolt (`split-sink`), 1 acker, HadoopCatalog, 5 columns unpartitioned, a fresh table for each run. "
    "The sink seals every 50,000 records or every second (tick 1 s); the split sink's committer commits every second. "
    "Each sink is first run unthrottled (20 s of warm-up, 20 s measured) for its peak, then for the minutes shown at "
    "80 % of it. A row a minute: records/s acked; live heap after a full GC forced at the minute's end (LocalCluster "
    "included); open file descriptors of the process; commits/s and the commit latency's p50 and p99 from the sink's "
    "own `iceberg-commit-latency` timer (Storm's default codahale reservoir, weighted to the last five minutes or so); "
    "the largest `iceberg-oldest-pending-age-ms` sampled every second; the machine's one-minute load average (2 cores, "
    "shared with other builds: read it beside every other figure). Flat: the last minute against the second (the first "
    "holds the start), within the rule shown, and no figure worse at every minute from the second on.",
    "SnapshotLookup": "The snapshot-history walks the sink makes, timed (µs a call, median of 25 rounds after a warm-up) "
    "on a HadoopCatalog table grown by empty fast appends (manifest lists kept in memory to build it quickly), every "
    "snapshot seconds old, so a bound by time alone cuts nothing. `find landed`/`find not landed`: the settler's lookup "
    "of a commit's id (and the same-id retry's validator), stopping at the branch head the attempt read; `restart (time "
    "bound only)`: a restarting task describing a stale WAL entry, which walks the last ten minutes of commits; "
    "`positions`: a batch open reading the sink's committed source positions, its newest commit at the head or at the "
    "table's first snapshot; `load table`: Iceberg parsing the table's metadata, which every refresh after a commit "
    "pays.",
    "BatchMemory": "One batch in a JVM of its own with the -Xmx shown, every record a fresh tuple as in a worker; "
    "heap as used after GC. live-heap-at-10pct/90pct: live heap (after full GCs) a tenth and nine tenths into the "
    "batch; held-bytes-per-tuple: their difference per tuple (the held ack ids spill to a file beyond about 5.5 MiB, "
    "so what is left is the open Parquet file's growing row group). heap-per-open-file: slope of the open batch's "
    "live heap between 1 and 100 partitions, 1000 records each.",
}


# What limits the figures, from profiles taken by hand (not regenerated by run.sh; date them).
FINDINGS = """## What limits them (profiled by hand on 2026-12-01; not regenerated by run.sh)

- **KernelVsLimit, per commit.** Both sides pay about 70–75 ms per append here: Iceberg waits for its
  parallel manifest steps in 10 ms sleeps (`Tasks.waitFor`), and Hadoop's local file system forks
  `chmod` for every file it creates, since the native Hadoop library is absent (about 9 forks a
  commit). The kernel adds its WAL entry (about 10 ms: the entry and its `.crc`, two more forks),
  and acking 100,000 value-free tuples takes about 5 ms. That is about 7 % of the kernel's time at
  100,000-record batches, under 2 % at 1,000,000, and it is why the limit itself runs about twice
  as fast at the larger batches.
- **KernelVsLimit, per record** (async-profiler 2.9, CPU samples every 1 ms of the measuring thread,
  5 columns unpartitioned, 1,000,000-record batches, pool 8,192, a run of its own with its warm-up
  repetition counted). The kernel spent 0.91 µs of CPU a record, `limit internal rows` 0.59 µs. Of
  the 0.32 µs between them (each part rounded):
  - 0.09 µs mapping: reading the tuple's values and building the row. A kernel whose mapper cost
    nothing, handing out rows built ahead, ran at 0.94× the real one (2026-12-01, JFR probe), so
    the reads, not the building, are what costs.
  - 0.08 µs holding the ack ids: the message id, its anchor `HashMap`, its node and boxed ids.
  - 0.06 µs Parquet encoding itself, slower inside the kernel: the same writer, rows and leaf
    functions (most of all its dictionaries' hash lookups), each about 1.1× as costly as in the
    limit; most likely the kernel's other work on each record displaces the writer's tables from
    cache. With the immutable one-entry anchor maps the benchmark's tuples had until this run,
    whose `entrySet` allocates on every read, it was 1.3×.
  - 0.05 µs acking: a value-free tuple rebuilt per ack, and the spilled ids read back.
  - 0.02 µs the tick check, the first read of each tuple.
  - 0.03 µs the rest: seal checks, the clock, counters, the WAL entry and the rest of the commit
    bookkeeping.

  No single part is large: they are the reads of a Storm tuple's objects, the ack bookkeeping Storm
  asks for, and what those displace. At 50 columns the writer costs ten times as much a record and
  the same overhead weighs about 10 % or less. `limit building records` (a program that builds generic
  records from the tuples' values, with no Storm) ran at 0.75–0.93× the limit at 5 columns in run
  20261201T080733Z, and the kernel at 0.88–1.06× of it.
- **KernelVsLimit, the pool.** These runs cannot tell a cache effect of about 0.1× from noise. Pools of
  1,024 rows (every pool within a core's 2 MB L2), 8,192 and 65,536 rows gave the kernel 0.79×,
  0.73× and 0.81× the limit in run 20261201T071329Z, and 0.81×, 0.75× and 0.87× in run
  20261201T080733Z. The small pool sped the kernel up by 14 % in the first run and not at all in the
  second; the limit's rate at 1,024 rows was 5 % above and 7 % below its rate at 8,192. A
  kernel-only probe alternating the three pools in one JVM gave 1.13, 1.39 and 1.40 µs of CPU a
  record (medians of 7 rounds); the limit was not probed that way. Per CPU second the 1,024-row
  pool did better in both runs (0.78× against 0.68×, 0.77× against 0.71×), and the 65,536-row
  pool's higher wall-time ratio came from the limit slowing more than the kernel.
- **Noise.** This machine's two cores are shared. Five full runs on 2026-12-01 gave 0.87×, 0.76×,
  0.76×, 0.73× and 0.75× at 5 columns unpartitioned; between them came the per-record cuts (before
  the second), the limit's once-a-batch spec lookup (before the fourth) and the HashMap anchors
  (before the fifth). One 100,000-record run under the profiler gave 0.96×. Read one run's ratios as
  ±0.1.
- **Cuts made on 2026-12-01.**
  - Internal rows for Parquet.
  - The clock read every 16 records when ticks bound the delay.
  - Byte estimates every 1000 records.
  - Each column's conversion resolved once.
  - Spilled ack ids written and read back in bulk column copies. Acking a spilled 1,000,000-tuple
    batch took 170–260 ms before, reading a field at a time. In a paired old/new run at
    1,000,000-record batches, the kernel went from 0.61× to 0.72× the limit.
  - `iceberg-records-written` counted in a plain field and published every 16 records, instead of
    a `LongAdder` add per record.
  - A new row per tuple. A reused row lives in G1's old generation, where each reference stored
    into it passes a card-marking fence; the new rows cut kernel CPU by 3–6 % in two paired runs.
  - At 100,000-record batches, the last three cuts together were within noise in a paired old/new
    run (0.813× against 0.815× the limit).
- **Mapping, per representation** (2026-12-01; a harness of its own: MapperBenchmark's 5-column
  tuples, two builds' mappers in two class loaders of one JVM, alternated round by round, timed in
  thread CPU; JMH's wall-time figures were useless on the loaded machine). Each column's
  conversion is built once per schema by visiting its type, one visitor per representation. A
  value already of the column's Java class (a `Long` for a long column) skips the conversion call:
  that call site sees one conversion class per column type and is not inlined, and without the
  check the visitor-built mapper took 1.06× (generic) and 1.10× (internal rows) the CPU of the
  mapper before it; with it, 0.93–1.02× and 0.93–0.97× (paired medians of three sessions), and the
  json mapper 0.85–0.90×. Per tuple in the quietest session: 65–67 ns for a generic record, 43–45
  ns for an internal row, 1.6–1.9 µs for a json document. Each timestamptz conversion keeps the
  date of its last value: without it a generic record took 1.07× the CPU (one timestamptz column
  in five; identical code measured 0.95× in the same session, so read ±5 %).
- **Internal rows in the kernel** (2026-12-01; `KernelVsLimit 100000 3 5 'columns=5
  partitions=1 .*'`, each build also with `-Dbench.genericRows=true`, the four alternated, two
  sessions of 15 and 10 repetitions a variant). Kernel CPU a record with internal rows against
  generic records: 1.77 against 1.56 µs and 1.15 against 1.32 µs with the mapper before the
  visitors, 1.51 against 1.67 µs and 1.18 against 1.24 µs after. Generic records cost 0.88–1.15×
  (median about 1.08×): internal rows save the mapper about 22 ns a tuple and spare the writer
  taking `OffsetDateTime`s apart, but at the kernel's 1.1–1.8 µs a record the saving is inside this
  machine's noise. The visitor-built mapper against the one before: 0.85× and 1.03× the kernel's
  CPU a record.
- **EndToEnd.** An acking-only topology already costs Storm 4–6 µs of CPU a tuple (spout, acker,
  queues); the sink adds mapping plus Parquet encoding on the bolt's one executor thread.
- **Tuples that carry many records** (run 20261202T052524Z, not profiled; the machine's load average
  was 8–16 on 2 cores). Per process CPU second, IcebergBolt with a multi-record mapper at 10 records
  a tuple ran at 2.5× the one-record IcebergBolt (paired median 2.8×) and 1.06× the acking bolt
  unpartitioned, at 100 records at 3.0× and 1.25×: Storm's per-tuple cost (the emit, the acker, the
  queues, the held ack ids) is paid once for all of a tuple's records. At 16 partitions 2.4× and
  1.6×; that 100 records did worse than 10 there is not explained by this run (not profiled). At 1
  record a tuple the multi-record path ran at 0.68× (16 partitions: 0.89×) of the one-record path:
  it writes generic records rather than internal rows and allocates a list a tuple, and the bench's
  spout builds a list of value lists; the one-record path itself was measured before and after the
  change with KernelVsLimit (see "Before and after the multi-record mapper"). Against Flink's FlinkSink in the same run: Storm alone 0.57×,
  IcebergBolt 0.24×, Trident 0.38–0.43×, 10 records a tuple 0.61×, 100 records 0.71×
  (unpartitioned). Flink ran at 279k records per CPU second here against 725k in run
  20261201T080733Z, and Storm alone reached 0.97× of it at 16 partitions: the load weighed on the
  Flink runs more than on Storm's, so these ratios to Flink are high; the ratios within EndToEnd are
  paired by repetition and steadier.
- **Flink.** Flink's records carry no per-record ack and are written by one chained task. With a
  bounded source the job ended right after its last row, and IcebergSink (Sink V2) dropped what its
  final checkpoint held, in line with FLINK-38614 (final-checkpoint committables of Sink V2 jobs
  with pre/post-commit topologies can be dropped): runs before 2026-12-01T05:45Z show 2–75 % of the
  rows committed. Since then the source waits for a checkpoint after its last row, and both sinks
  commit every row.
- **CommitScaling.** Every IcebergBolt task commits on its own; past 4 writers Iceberg's 4 retries
  and the sink's 3 are not enough, batches fail and replay, and throughput collapses. The split
  sink's committer makes one commit a second whatever the writer count and sees no conflicts.
- **BatchMemory.** Records are streamed into Parquet, and of each tuple the batch keeps only its
  ack ids (source task, stream, root and edge, sample time: about 22 bytes), 64 chunks (about
  5.5 MiB) on the heap and the rest in a spill file read back once when the batch settles. Before
  2026-11-30 every tuple was held whole until the commit (about 400 bytes for a 5-column tuple; a
  10-million-record batch of a worker's own tuples would have held about 3.7 GiB). Each open Parquet
  file holds about 2 MiB (5 columns) to 3.3 MiB (50 columns) of writer buffers before its first row
  group is flushed, and its row group grows up to `write.parquet.row-group-size-bytes` (128 MiB)
  before it is written out.
"""

# Why the per-record path is shaped as it is; the contracts keep only what plug-ins may assume.
DESIGN_NOTES = """## Design notes on the per-record path

Why the per-record path is shaped as it is. The contracts (the SPI's Javadoc) state only what a
plug-in may assume; the reasons, and the figures behind them, live here.

- **The clock every 16 records.** Seal policies are asked after every record, but reading the clock
  costs about as much as writing a small record's values (about 40 ns on this virtual machine), so
  a task reads it when a batch opens, on every tick tuple and every 16 records
  (`SinkTask.RECORDS_PER_CLOCK_READ`); policies see the last reading in `BatchStats`. A time
  threshold then seals at most 16 records or one tick after it passes, which the SPI allows:
  `SealPolicy` is a threshold (once crossed it stays crossed, as its contract test checks), so a
  late look never misses a seal. A task without ticks has only records to look at, so when one of
  its policies may read time it reads the clock after every record. The kernel knows which of its
  own policies read time (`age`, `wall-clock`) and takes every plug-in to; the SPI carries no hint
  for it. In Storm a task with a time policy always has ticks (the bolt declares them, and a time
  threshold without them is refused at prepare), so only tasks run outside Storm read per record.
- **`iceberg-records-written` in a plain field.** The counter is a `LongAdder`, an atomic add per
  call; the task counts records in a field and publishes them whenever it reads the clock, when a
  batch seals and when it closes, as Flink counts records.
- **A new row per tuple.** A mapper may overwrite one record for every tuple, but the field-name
  mapper returns a new one: a long-lived row sits in G1's old generation, where each reference
  stored into it passes a card-marking fence, while stores into a just-allocated object do not. The
  new rows cut kernel CPU by 3–6 % in two paired runs.
- **Byte estimates.** An estimate walks every open file's column buffers, so it is taken with the
  first record and then at most every 1000 records, more often near the `bytes` threshold
  (`ByteEstimates`), so a batch still seals within about one record of it.
"""


SOAK_COLUMNS = ["records/s", "live-heap-mib", "open-fds", "commits/s", "commit-p50-ms", "commit-p99-ms",
                "oldest-pending-age-ms", "load-average"]


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
    """(suite, params, variant) -> (values, unit)."""
    rows = defaultdict(lambda: ([], ""))
    if args.csv and os.path.exists(args.csv):
        with open(args.csv) as f:
            for suite, params, variant, _rep, value, unit in csv.reader(f):
                values, _ = rows[(suite, params, variant)]
                values.append(float(value))
                rows[(suite, params, variant)] = (values, unit)
    if args.jmh and os.path.exists(args.jmh):
        for r in json.load(open(args.jmh)):
            cls, method = r["benchmark"].split(".")[-2:]
            params = " ".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
            raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
            rows[(cls, params, method)] = (raw, r["primaryMetric"]["scoreUnit"])
    return rows


def fmt(x):
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def spread(values):
    return f"{fmt(min(values))}–{fmt(max(values))}" if len(values) > 1 else "(1 run)"


def paired_ratios(values, baseline):
    """Ratios of figures measured side by side in the same repetition, when both sides have each one."""
    if len(values) < 2 or len(values) != len(baseline) or not all(baseline):
        return None
    return [v / b for v, b in zip(values, baseline)]


def natural(key):
    """Sorts numbers inside strings by value, so pool=8192 comes before pool=65536."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", str(key))]


def param(params, key):
    m = re.search(rf"\b{key}=(\S+)", params)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv")
    ap.add_argument("--jmh")
    ap.add_argument("--commands")
    ap.add_argument("--wall", type=int)
    args = ap.parse_args()
    rows = load(args)
    medians = {k: statistics.median(v[0]) for k, v in rows.items()}

    print("# Benchmarks\n")
    print("Generated by `bench/run.sh`; do not edit by hand. Figures are medians over the measured")
    print("repetitions (warm-up repetitions are not reported), spread is min–max, n the number of")
    print("repetitions, and every ratio compares two figures measured in the same run.\n")
    print(f"- Machine: {machine()}")
    stamp = re.search(r"(\d{8}T\d{6}Z)", args.csv or args.jmh or "")
    print(f"- Run started: {stamp.group(1) if stamp else 'unknown'}"
          + (f", wall time {args.wall // 60} min {args.wall % 60} s" if args.wall else ""))
    print(f"- Raw results: `{args.csv}`, `{args.jmh}`\n")
    if args.commands and os.path.exists(args.commands):
        print("Commands (from the repository root, after `mvn -B -q package -DskipTests -Pbench,flink-peer -pl bench,bench/flink-peer -am`):\n")
        print("| suite | wall s | command |\n|---|---:|---|")
        with open(args.commands) as f:
            for line in f:
                suite, secs, command = line.rstrip("\n").split("\t", 2)
                print(f"| {suite} | {secs} | `{command}` |")
        print()

    for suite in sorted({k[0] for k in rows}, key=lambda s: list(SUITE_NOTES).index(s) if s in SUITE_NOTES else -1):
        print(f"## {suite}\n")
        if suite in SUITE_NOTES:
            print(SUITE_NOTES[suite] + "\n")
        if suite == "Soak":
            print(soak_section(args.csv))
            continue
        print("| params | variant | median | spread | n | unit | ratio |")
        print("|---|---|---:|---:|---:|---|---|")
        for (s, params, variant), (values, unit) in sorted(rows.items(), key=lambda item: natural(item[0])):
            if s != suite:
                continue
            bases = BASELINES.get(suite, {}).get(variant, ())
            ratios = []
            for base in (bases,) if isinstance(bases, str) else bases:
                if (s, params, base) not in medians or not medians[(s, params, base)]:
                    continue
                ratio = f"**{medians[(s, params, variant)] / medians[(s, params, base)]:.2f}×** {base}"
                paired = paired_ratios(values, rows[(s, params, base)][0]) if suite in PAIRED else None
                if paired:
                    ratio += f" (paired by repetition: median {statistics.median(paired):.2f}×, {min(paired):.2f}–{max(paired):.2f})"
                ratios.append(ratio)
            ratio = "; ".join(ratios)
            print(f"| {params} | {variant} | {fmt(statistics.median(values))} | {spread(values)} | {len(values)} | {unit} | {ratio} |")
        print()

    crossed = []
    for title, key, (sa, va), (sb, vb) in CROSS:
        a = {param(p, key): m for (s, p, v), m in medians.items() if s == sa and v == va}
        b = {param(p, key): m for (s, p, v), m in medians.items() if s == sb and v == vb}
        for k in sorted(set(a) & set(b)):
            if b[k]:
                crossed.append(f"| {title} | {key}={k} | {fmt(a[k])} | {fmt(b[k])} | **{a[k] / b[k]:.2f}×** |")
    if crossed:
        print("## Storm against Flink\n")
        print("Both on the same machine in the same run; the JVM of each may use every core, so per-core figures divide "
              "by process CPU time rather than by a core count.\n")
        print("| comparison | params | Storm | Flink | Storm/Flink |\n|---|---|---:|---:|---:|")
        print("\n".join(crossed))
        print()
    print(FINDINGS)
    print(DESIGN_NOTES)


if __name__ == "__main__":
    main()
