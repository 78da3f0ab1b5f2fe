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

# Starts or stops the real-cluster test's daemons, all on 127.0.0.1:
#   ZooKeeper (Debian's zookeeper package), PostgreSQL (Debian's postgresql, as the postgres user
#   when run as root), Storm Nimbus and Supervisor (from the storm-server jars in $STORM_HOME/lib).
# The Supervisor launches the workers itself (lib-worker/ and extlib/ on their classpath).
#
#   cluster.sh start   # leaves pids in $CLUSTER_DIR/pids; on failure stops what it started
#   cluster.sh stop    # stops every daemon and worker of this cluster by PID, even half-started
#
# Environment (the pom sets it): CLUSTER_DIR, STORM_HOME, ZOOKEEPER_PORT, NIMBUS_PORT,
# SUPERVISOR_PORT, SLOT_PORTS (comma-separated), POSTGRES_PORT.
# Nothing here is a guessed sleep: every wait polls a condition until a deadline.
set -eEuo pipefail   # -E: the ERR trap in start() fires inside functions too

: "${CLUSTER_DIR:?}" "${STORM_HOME:?}" "${ZOOKEEPER_PORT:?}" "${NIMBUS_PORT:?}" "${SUPERVISOR_PORT:?}" "${SLOT_PORTS:?}" "${POSTGRES_PORT:?}"
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
ZOOKEEPER_CP=${ZOOKEEPER_CP:-/etc/zookeeper/conf:/usr/share/java/zookeeper.jar}
# The catalog's database and owner; the test reads the same names (RealClusterIT).
DB_NAME=iceberg
DB_USER=storm_iceberg
DB_PASSWORD=storm-iceberg-test

PIDS=$CLUSTER_DIR/pids
LOGS=$CLUSTER_DIR/logs
LOCAL_DIR=$CLUSTER_DIR/storm-local
PG_DIR=$CLUSTER_DIR/postgres

log() { echo "[cluster] $*"; }

on_start_failure() {
  trap - ERR
  log "start failed: a step failed or a daemon exited; logs follow"
  print_logs
  stop
  exit 1
}

# Runs a PostgreSQL tool as the postgres user when we are root (initdb refuses root).
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# await DESCRIPTION SECONDS COMMAND...: polls COMMAND every 0.2 s until it succeeds or time runs out;
# gives up at once when COMMAND exits with $GAVE_UP.
GAVE_UP=99
await() {
  local what=$1 seconds=$2; shift 2
  local deadline=$((SECONDS + seconds)) status
  while true; do
    status=0
    "$@" >/dev/null 2>&1 || status=$?
    [ "$status" = 0 ] && break
    if [ "$status" = "$GAVE_UP" ]; then
      log "gave up waiting for $what: the process has exited"
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "gave up after ${seconds} s waiting for $what"
      return 1
    fi
    sleep 0.2
  done
  log "$what: done in $((seconds - (deadline - SECONDS))) s"
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
alive() { kill -0 "$1" 2>/dev/null; }
# A ZooKeeper that is still starting may hold the connection open without answering: hence timeout.
zookeeper_serving() {
  timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$ZOOKEEPER_PORT; echo srvr >&3; grep -q '^Mode:' <&3" 2>/dev/null
}

# start_java NAME JAVA-ARGS...: one daemon in the background, its pid saved.
start_java() {
  local name=$1; shift
  java "$@" >"$LOGS/$name.out" 2>&1 &
  echo $! >"$PIDS/$name.pid"
  log "$name started, pid $!"
}

# await_daemon NAME DESCRIPTION SECONDS COMMAND...: await, but gives up as soon as NAME has died.
await_daemon() {
  local name=$1; shift
  local pid
  pid=$(cat "$PIDS/$name.pid")
  await "$1" "$2" daemon_ready "$pid" "${@:3}"
}
daemon_ready() {
  local pid=$1; shift
  alive "$pid" || return "$GAVE_UP"
  "$@"
}

start_zookeeper() {
  mkdir -p "$CLUSTER_DIR/zookeeper/data"
  cat >"$CLUSTER_DIR/zookeeper/zoo.cfg" <<EOF
tickTime=2000
initLimit=10
syncLimit=5
dataDir=$CLUSTER_DIR/zookeeper/data
clientPort=$ZOOKEEPER_PORT
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=srvr
EOF
  start_java zookeeper -Xmx256m -Dzookeeper.log.dir="$LOGS" -cp "$ZOOKEEPER_CP" \
    org.apache.zookeeper.server.quorum.QuorumPeerMain "$CLUSTER_DIR/zookeeper/zoo.cfg"
  await_daemon zookeeper "ZooKeeper on 127.0.0.1:$ZOOKEEPER_PORT" 60 zookeeper_serving
}

start_postgres() {
  mkdir -p "$PG_DIR"
  [ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
  local pwfile=$PG_DIR/superuser-password
  as_postgres bash -c "echo '$DB_PASSWORD' >'$pwfile'"
  as_postgres "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 >"$LOGS/initdb.log" 2>&1
  # Only TCP on 127.0.0.1, and the socket in our own directory, never /var/run/postgresql.
  as_postgres "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $POSTGRES_PORT -k $PG_DIR" >"$LOGS/pg_ctl.log" 2>&1
  head -1 "$PG_DIR/data/postmaster.pid" >"$PIDS/postgres.pid"
  log "PostgreSQL started, pid $(cat "$PIDS/postgres.pid")"
  await "PostgreSQL on 127.0.0.1:$POSTGRES_PORT" 60 as_postgres "$PG_BIN/pg_isready" -h 127.0.0.1 -p "$POSTGRES_PORT"
  as_postgres "$PG_BIN/psql" -v ON_ERROR_STOP=1 -q -h "$PG_DIR" -p "$POSTGRES_PORT" -U postgres -d postgres \
    -c "CREATE ROLE $DB_USER LOGIN PASSWORD '$DB_PASSWORD'" -c "CREATE DATABASE $DB_NAME OWNER $DB_USER"
  log "database $DB_NAME owned by $DB_USER"
}

write_storm_conf() {
  mkdir -p "$STORM_HOME/conf" "$STORM_HOME/log4j2" "$LOCAL_DIR"
  local slots
  slots=$(echo "$SLOT_PORTS" | sed 's/,/, /g')
  cat >"$STORM_HOME/conf/storm.yaml" <<EOF
# Written by cluster.sh: a one-machine cluster on 127.0.0.1.
storm.zookeeper.servers: ["127.0.0.1"]
storm.zookeeper.port: $ZOOKEEPER_PORT
nimbus.seeds: ["127.0.0.1"]
nimbus.thrift.port: $NIMBUS_PORT
supervisor.thrift.port: $SUPERVISOR_PORT
supervisor.slots.ports: [$slots]
storm.local.dir: "$LOCAL_DIR"
storm.local.hostname: "127.0.0.1"
worker.heap.memory.mb: 512
worker.childopts: "-Xmx%HEAP-MEM%m -XX:+HeapDumpOnOutOfMemoryError"
EOF
  cp "$(dirname "$0")"/log4j2/*.xml "$STORM_HOME/log4j2/"
}

# The daemons' classpath, as Storm's launcher builds it: lib/, extlib-daemon/, conf/ (storm.yaml).
daemon_cp() { echo "$STORM_HOME/lib/*:$STORM_HOME/extlib-daemon/*:$STORM_HOME/conf"; }

start_storm_daemon() {
  local name=$1 main=$2
  start_java "$name" -Xmx512m -Dstorm.home="$STORM_HOME" -Dstorm.log.dir="$LOGS" -Dlogfile.name="$name.log" \
    -Dlog4j.configurationFile="$STORM_HOME/log4j2/cluster.xml" -cp "$(daemon_cp)" "$main"
}

# Another process on one of our ports would answer the readiness probes in our daemon's stead.
ports_free() {
  local port
  for port in "$ZOOKEEPER_PORT" "$POSTGRES_PORT" "$NIMBUS_PORT" "$SUPERVISOR_PORT" ${SLOT_PORTS//,/ }; do
    if listening "$port"; then
      log "port $port on 127.0.0.1 is taken by another process; free it or change the port properties in examples/real-cluster/pom.xml"
      return 1
    fi
  done
}

start() {
  stop >/dev/null 2>&1 || true   # leftovers of an interrupted run
  rm -rf "$CLUSTER_DIR"
  mkdir -p "$PIDS" "$LOGS" "$CLUSTER_DIR/warehouse"
  ports_free
  trap on_start_failure ERR
  start_zookeeper
  start_postgres
  write_storm_conf
  start_storm_daemon nimbus org.apache.storm.daemon.nimbus.Nimbus
  await_daemon nimbus "Nimbus on 127.0.0.1:$NIMBUS_PORT" 120 listening "$NIMBUS_PORT"
  start_storm_daemon supervisor org.apache.storm.daemon.supervisor.Supervisor
  await_daemon supervisor "Supervisor on 127.0.0.1:$SUPERVISOR_PORT" 120 listening "$SUPERVISOR_PORT"
  trap - ERR
}

# Every worker JVM of this cluster (and its LogWriter parent): the Supervisor leaves their pids
# under storm.local.dir/workers/*/pids, and they carry -Dstorm.local.dir=<ours> on the command line.
worker_pids() {
  local pid
  for pid in $(ls "$LOCAL_DIR"/workers/*/pids 2>/dev/null | grep -E '^[0-9]+$'); do echo "$pid"; done
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    if { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF -- "-Dstorm.local.dir=$LOCAL_DIR "; then echo "$pid"; fi
  done
}

# stop_pid NAME PID [SIGNAL]: asks politely, then kill -9 after 20 s.
stop_pid() {
  local name=$1 pid=$2 signal=${3:-TERM}
  alive "$pid" || return 0
  kill "-$signal" "$pid" 2>/dev/null || true
  if ! await "$name (pid $pid) exit" 20 bash -c "! kill -0 $pid"; then
    kill -9 "$pid" 2>/dev/null || true
    log "$name (pid $pid) killed with -9"
  fi
}

stop_named() {
  local name=$1 signal=${2:-TERM}
  [ -f "$PIDS/$name.pid" ] || return 0
  stop_pid "$name" "$(cat "$PIDS/$name.pid")" "$signal"
  rm -f "$PIDS/$name.pid"
}

stop() {
  # The Supervisor first, so it restarts no worker; then the workers it left running.
  stop_named supervisor
  for pid in $(worker_pids | sort -u); do stop_pid worker "$pid"; done
  stop_named nimbus
  stop_named zookeeper
  # SIGINT is PostgreSQL's "fast" shutdown: sessions are closed, nothing is left to recover.
  stop_named postgres INT
  return 0
}

print_logs() {
  local file
  for file in "$LOGS"/*.log "$LOGS"/*.out "$PG_DIR/postgres.log" "$LOGS"/workers-artifacts/*/*/worker.log; do
    [ -f "$file" ] || continue
    echo "----- last 40 lines of $file"
    tail -40 "$file"
  done
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  logs) print_logs ;;
  *) echo "usage: $0 start|stop|logs" >&2; exit 2 ;;
esac
