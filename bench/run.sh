#!/usr/bin/env bash
# Reruns the benchmarks and writes their figures to docs/BENCHMARKS.md.
#   bench/run.sh            every benchmark
#   bench/run.sh Mapper     only those matching a JMH pattern
# JMH options can be overridden with JMH_OPTS (default: 1 fork, 3 warm-up and 5 measured 1 s iterations).
set -euo pipefail
cd "$(dirname "$0")/.."
pattern="${1:-.*}"
jmh_opts="${JMH_OPTS:--f 1 -wi 3 -w 1s -i 5 -r 1s}"

mvn -B -q install -DskipTests -pl bench -am
mkdir -p bench/results docs
result="bench/results/jmh-$(date -u +%Y%m%dT%H%M%SZ).json"
command="java -jar bench/target/benchmarks.jar '$pattern' $jmh_opts -rf json -rff $result"
eval "$command"
python3 bench/report.py "$result" "$command" > docs/BENCHMARKS.md
echo "wrote docs/BENCHMARKS.md from $result"
