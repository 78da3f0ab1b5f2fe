#!/usr/bin/env python3
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
    "KernelVsLimit": {"kernel": "limit"},
    "EndToEnd": {"iceberg-bolt": "acking-bolt", "iceberg-bolt per-cpu-s": "acking-bolt per-cpu-s"},
    "CommitScaling": {
        "split-sink snapshots/s": "iceberg-bolt snapshots/s",
        "split-sink records/s": "iceberg-bolt records/s",
    },
}

# Comparisons across suites, matched on one parameter: (title, key, (suite, variant), (suite, variant)).
CROSS = [
    ("Storm IcebergBolt against Flink FlinkSink, records per process CPU second", "partitions",
     ("EndToEnd", "iceberg-bolt per-cpu-s"), ("FlinkPeer", "flink-FlinkSink per-cpu-s")),
    ("Storm IcebergBolt against Flink FlinkSink, records per second", "partitions",
     ("EndToEnd", "iceberg-bolt"), ("FlinkPeer", "flink-FlinkSink")),
    ("Storm IcebergBolt against Flink IcebergSink (rows it committed), records per process CPU second", "partitions",
     ("EndToEnd", "iceberg-bolt per-cpu-s"), ("FlinkPeer", "flink-IcebergSink per-cpu-s")),
]

SUITE_NOTES = {
    "KernelVsLimit": "Records/s through a prepared IcebergBolt (real TopologyContext, real tuples, counting collector; "
    "WAL + append + ack per batch) against Iceberg's GenericFileWriterFactory under FanoutDataWriter writing the same "
    "rows as pre-built records, one AppendFiles per batch (commit included), HadoopCatalog on local disk. "
    "Partitions: bucket(16, c0).",
    "EndToEnd": "LocalCluster, 1 spout task into 1 bolt task, 1 acker, timed first emit to last ack; IcebergBolt "
    "commits every `batch` records to a HadoopCatalog. per-cpu-s: records per second of process CPU time.",
    "FlinkPeer": "Flink 1.20 MiniCluster, parallelism 1 (one slot), checkpoint (= commit) every 1 s, same rows, "
    "HadoopCatalog, format v2, Parquet. Rates count the rows the table holds after the job "
    "(rows-committed-pct says how many of those sent).",
    "CommitScaling": "LocalCluster, JdbcCatalog on SQLite; every writer seals on age (1 s); the split sink's "
    "committer commits every 1 s. conflicts: CommitFailedException from the catalog (Iceberg then refreshes and "
    "retries); commit-attempts: every catalog commit; rows-failed: rows failed back to the spout and replayed.",
    "BatchMemory": "One batch in a JVM of its own with the -Xmx shown; heap as used after GC (live). 'reused' sends "
    "the same 8192 tuple objects again and again (the batch holds references only), 'fresh' a new tuple per record "
    "as a worker does. heap-per-open-file: slope of the open batch's live heap between 1 and 100 partitions, "
    "1000 records each.",
}


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
    print(f"- Run: {subprocess.run(['date', '-u'], capture_output=True, text=True).stdout.strip()}"
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
        print("| params | variant | median | spread | n | unit | ratio |")
        print("|---|---|---:|---:|---:|---|---|")
        for (s, params, variant), (values, unit) in sorted(rows.items()):
            if s != suite:
                continue
            base = BASELINES.get(suite, {}).get(variant)
            ratio = ""
            if base and (s, params, base) in medians and medians[(s, params, base)]:
                ratio = f"**{medians[(s, params, variant)] / medians[(s, params, base)]:.2f}×** {base}"
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


if __name__ == "__main__":
    main()
