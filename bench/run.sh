#!/usr/bin/env bash
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

# Reruns the benchmarks and writes their figures to docs/BENCHMARKS.md.
#   bench/run.sh                 every benchmark (about 115 minutes on 2 cores: 35 the maintenance hours, 22 the soak)
#   bench/run.sh 'Kernel|Memory' only the suites whose name matches the (bash) regex:
#                                MapperBenchmark KernelVsLimit EndToEnd StormSettings TridentEndToEnd FlinkPeer CommitScaling
#                                CommitLatency PartitionGrouping BatchMemory RoutingMemory TridentMemory DedupCost
#                                Soak SnapshotLookup RowLevelCost RowLevelReadCost FlinkUpsertPeer MaintenanceHour
# SOAK_MINUTES sets how long the Soak suite holds each sink at 80 % of its peak (default 10).
# JMH options can be overridden with JMH_OPTS (default: 1 fork, 3 warm-up and 5 measured 1 s iterations).
# Builds with the reactor (never `mvn install`: the local repository is shared).
set -euo pipefail
cd "$(dirname "$0")/.."
pattern="${1:-.*}"
jmh_opts="${JMH_OPTS:--f 1 -wi 3 -w 1s -i 5 -r 1s}"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p bench/results docs
csv="bench/results/harness-$stamp.csv"
jmh="bench/results/jmh-$stamp.json"
log="bench/results/commands-$stamp.tsv"
started=$(date +%s)

mvn -B -q package -DskipTests -Pbench,flink-peer -pl bench,bench/flink-peer -am

jar=bench/target/benchmarks.jar
harness="java -Xmx4g -Dbench.results=$csv -cp $jar org.apache.storm.iceberg.bench"
# What Flink's launch scripts open on Java 17 (Kryo reaches into these).
opens=""
for p in java.lang java.net java.io java.nio sun.nio.ch java.lang.reflect java.text java.time java.util \
         java.util.concurrent java.util.concurrent.atomic java.util.concurrent.locks; do
  opens="$opens --add-opens=java.base/$p=ALL-UNNAMED"
done

# run SUITE COMMAND...: runs the command when SUITE matches the pattern, logging it and its wall time.
run() {
  local suite="$1"; shift
  [[ "$suite" =~ $pattern ]] || return 0
  echo ">>> $*"
  local t0=$(date +%s)
  "$@"
  # %q quotes each argument as the shell needs it, so the logged command can be pasted back.
  local command
  command="$(printf '%q ' "$@")"
  printf '%s\t%s\t%s\n' "$suite" "$(( $(date +%s) - t0 ))" "${command% }" >> "$log"
}

run MapperBenchmark java -jar $jar 'Mapper' $jmh_opts -rf json -rff "$jmh"
run KernelVsLimit $harness.KernelVsLimit 100000 5 5
run KernelVsLimit $harness.KernelVsLimit 1000000 2 5 'columns=5 .*'
# How much of the kernel's distance to the limit is reading tuples that are not in cache.
run KernelVsLimit $harness.KernelVsLimit 100000 5 5 'columns=5 partitions=1 .*' 1024
run KernelVsLimit $harness.KernelVsLimit 100000 5 5 'columns=5 partitions=1 .*' 65536
run EndToEnd $harness.EndToEnd 400000 50000 3
# Storm's settings (wait strategies, producer and transfer batches, ackers, max spout pending) one at a time against the defaults.
run StormSettings $harness.StormSettings 200000 50000 2
# What deduplication by source position costs a record, and reading the committed positions a batch open.
run DedupCost $harness.DedupCost 100000 5 5
# What the row-level write modes cost a record against append, on the same tuples. The heap is
# touched up front: a growing heap's page faults are charged to the measuring thread, and they made
# one mode's thread CPU a record vary threefold between repetitions (0.88-3.25 us for append).
pretouched="java -Xms4g -Xmx4g -XX:+AlwaysPreTouch -Dbench.results=$csv -cp $jar org.apache.storm.iceberg.bench"
run RowLevelCost $pretouched.RowLevelCost 100000 5 5
# The same at 50 columns, 100,000 rows a run (FlinkUpsertPeer writes both lines' rows through Flink's sink).
run RowLevelCost $pretouched.RowLevelCost 50000 2 2 10,90 50
# A full scan after 1,000 upsert commits, before and after one compaction pass, against the same rows appended
# once: the figure that says when to compact (about 10 minutes, 3 of them the uncompacted scan).
run RowLevelReadCost $harness.RowLevelReadCost 1000 10 50 1
run TridentEndToEnd $harness.TridentEndToEnd 400000 50000 3
run FlinkPeer java -Xmx4g $opens -jar bench/flink-peer/target/flink-peer.jar 2000000 3 "$csv"
# Flink's IcebergSink in upsert mode against its own append, on the rows of the two RowLevelCost lines
# (500,000 rows at 5 columns: at 100,000 a Flink job's fixed cost is a large share of its CPU).
upsert_peer="java -Xmx4g $opens -cp bench/flink-peer/target/flink-peer.jar org.apache.storm.iceberg.bench.flink.FlinkUpsertPeer"
run FlinkUpsertPeer $upsert_peer 500000 2 "$csv" 5 10,90 2
run FlinkUpsertPeer $upsert_peer 100000 2 "$csv" 50 10,90 2
run CommitScaling $harness.CommitScaling 20000 2 1,4,8,16
run CommitLatency $harness.CommitLatency 300 3
run PartitionGrouping $harness.PartitionGrouping 256000 3 16,128
run BatchMemory java -Xmx256m -Dbench.results=$csv -cp $jar org.apache.storm.iceberg.bench.BatchMemory records 10000000
run BatchMemory java -Xmx256m -Dbench.results=$csv -cp $jar org.apache.storm.iceberg.bench.BatchMemory records 1000000
run BatchMemory $harness.BatchMemory partitions 5
run BatchMemory $harness.BatchMemory partitions 50
run RoutingMemory java -Xmx256m -Dbench.results=$csv -cp $jar org.apache.storm.iceberg.bench.RoutingMemory 1000 32 200
# A long Trident run keeps bounded memory: the live heap a tenth into 3 million tuples and at their end.
run TridentMemory java -Xmx512m -Dbench.results=$csv -cp $jar org.apache.storm.iceberg.bench.TridentEndToEnd memory 3000000 50000
# The snapshot-history walks of a commit, its resolution and a restart, at 100 and 10,000 snapshots.
run SnapshotLookup $harness.SnapshotHistory 100,10000
# A simulated hour at a commit a second, with and without the maintenance pass, entries only; with real Parquet
# a half hour (its unmaintained full scans read every row of up to 14,400 files: about half the suite's 25 minutes).
run MaintenanceHour $harness.MaintenanceHour 3600 600 8 metadata 120
run MaintenanceHour $harness.MaintenanceHour 1800 600 8 parquet 120
# The same hour with the sink itself committing, five commits a second, the maintenance bolt beside it; the SQLite
# catalog's database off the data's disk, as a catalog server's is (on the same disk its fsyncs queue behind the
# compaction's writes).
run MaintenanceHour java -Xmx4g -Dbench.results=$csv -Dbench.catalogDir=/dev/shm -cp $jar \
  org.apache.storm.iceberg.bench.MaintenanceHour 3600 600 8 sink 120 200
# Load held over time: each sink for SOAK_MINUTES at 80 % of the peak it measured first, a row a minute.
run Soak $harness.Soak "${SOAK_MINUTES:-10}" 20 60

wall=$(( $(date +%s) - started ))
python3 bench/report.py --csv "$csv" --jmh "$jmh" --commands "$log" --wall "$wall" > docs/BENCHMARKS.md
echo "wrote docs/BENCHMARKS.md from $csv and $jmh in ${wall} s"
