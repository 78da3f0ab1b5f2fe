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

"""Tells what made the sink's slow commits slow, from a MaintenanceHour sink run's commit log.

Run MaintenanceHour with -Dbench.commitReports=FILE (see CommitReportLog), then:
    bench/commit_causes.py FILE [FILE ...]

Each of the sink's commits after the first is put in one of three groups: a commit that merged
manifests on its own path; a commit during which the maintenance thread used more than 50 ms of
CPU (a pass under way); the rest. For each group: how many commits took more than 58 ms (the
issue's p99 target). Commits that met a concurrent commit and retried are counted apart too.
"""

import csv
import sys

SLOW_MS = 58
BUSY_CPU_MS = 50


def causes(path):
    reports, events = {}, []
    with open(path) as log:
        for row in csv.reader(log):
            if row[0] == "commit":  # commit,end,thread,operation,snapshot,attempts,ms,created,replaced,kept,entries
                reports[row[4]] = {"attempts": int(row[5]), "replaced": int(row[8])}
            elif row[0] == "event":  # event,end,thread,snapshot,ms,gc ms,maintenance cpu ms,commit cpu ms
                events.append({"snapshot": row[3], "ms": int(row[4]), "maintenance_cpu": int(row[6]),
                               "commit_cpu": int(row[7])})
    groups = {"merged manifests": [0, 0], "maintenance busy": [0, 0], "maintenance idle": [0, 0]}
    retried = 0
    for before, event in zip(events, events[1:]):
        report = reports.get(event["snapshot"], {"attempts": 1, "replaced": 0})
        retried += report["attempts"] > 1
        if report["replaced"] > 0:
            group = "merged manifests"
        elif event["maintenance_cpu"] - before["maintenance_cpu"] > BUSY_CPU_MS:
            group = "maintenance busy"
        else:
            group = "maintenance idle"
        groups[group][0] += 1
        groups[group][1] += event["ms"] > SLOW_MS
    print(path)
    for group, (commits, slow) in groups.items():
        share = f"{100 * slow / commits:.0f}%" if commits else "-"
        print(f"  {group}: {commits} commits, {slow} over {SLOW_MS} ms ({share})")
    print(f"  retried after a concurrent commit: {retried}")


if __name__ == "__main__":
    for path in sys.argv[1:]:
        causes(path)
