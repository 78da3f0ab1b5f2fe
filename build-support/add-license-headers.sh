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

#
# Adds the ASF license header to every source file of the repository that lacks one, in the comment
# style of its type, and leaves every other file as it is: rerun it at will (after a merge, after
# adding files). apache-rat-plugin checks the result in `mvn -B verify`.
#
#   build-support/add-license-headers.sh          add the missing headers
#   build-support/add-license-headers.sh --check  list the files without one; exit 1 if any
#
# Files: those git tracks plus untracked ones it does not ignore, by type: *.java; *.xml and *.md
# (an HTML comment, after an <?xml ...?> declaration); *.yaml, *.yml, *.properties, *.sh, *.py,
# META-INF/services/* and scripts whose first line is a #! (# comments, after the #! line). Left
# out, as apache-rat-plugin's excludes in pom.xml: bench/results/ (benchmark data) and
# docs/BENCHMARKS.md (written by bench/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

MARKER='Licensed to the Apache Software Foundation (ASF)'
TEXT='Licensed to the Apache Software Foundation (ASF) under one
or more contributor license agreements.  See the NOTICE file
distributed with this work for additional information
regarding copyright ownership.  The ASF licenses this file
to you under the Apache License, Version 2.0 (the
"License"); you may not use this file except in compliance
with the License.  You may obtain a copy of the License at

  http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing,
software distributed under the License is distributed on an
"AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
KIND, either express or implied.  See the License for the
specific language governing permissions and limitations
under the License.'

check=false
[[ "${1:-}" == "--check" ]] && check=true

# The header in one comment style: $1 opens, $2 prefixes each line, $3 closes (empty: no line).
header() {
  [[ -n "$1" ]] && printf '%s\n' "$1"
  while IFS= read -r line; do
    if [[ -z "$line" ]]; then printf '%s\n' "${2%% }"; else printf '%s%s\n' "$2" "$line"; fi
  done <<< "$TEXT"
  [[ -n "$3" ]] && printf '%s\n' "$3"
  return 0
}

# The comment style of a file: java, markup, hash, or nothing to do.
style() {
  case "$1" in
    bench/results/*|docs/BENCHMARKS.md|LICENSE|NOTICE) ;;
    *.java) echo java ;;
    *.xml|*.md) echo markup ;;
    *.yaml|*.yml|*.properties|*.sh|*.py|*.txt|*/META-INF/services/*) echo hash ;;
    *) if head -c 2 "$1" 2>/dev/null | grep -q '^#!'; then echo hash; fi ;;
  esac
  return 0
}

# Writes $1 with the header in style $2: after a first line matching $3 (a declaration or #!) when it has one.
add() {
  local file="$1" kind="$2" keep_first="$3" tmp
  tmp="$(mktemp)"
  {
    if head -n 1 "$file" | grep -qE "$keep_first"; then
      head -n 1 "$file"
      body_from=2
    else
      body_from=1
    fi
    case "$kind" in
      java) header '/*' ' * ' ' */' ;;
      markup) header '<!--' '  ' '-->' ;;
      hash) header '' '# ' '' ;;
    esac
    echo
    tail -n +"$body_from" "$file"
  } > "$tmp"
  cat "$tmp" > "$file"
  rm -f "$tmp"
}

missing=0
while IFS= read -r file; do
  [[ -f "$file" ]] || continue
  kind="$(style "$file")"
  [[ -n "$kind" ]] || continue
  head -n 30 "$file" | grep -qF "$MARKER" && continue
  missing=$((missing + 1))
  if $check; then
    echo "no license header: $file"
    continue
  fi
  case "$kind" in
    markup) add "$file" markup '^<\?xml ' ;;
    hash) add "$file" hash '^#!' ;;
    java) add "$file" java '^$^' ;;
  esac
  echo "added: $file"
done < <( { git ls-files; git ls-files --others --exclude-standard; } | sort -u)

if $check && (( missing > 0 )); then
  exit 1
fi
echo "$missing file(s) $($check && echo without a header || echo given a header)"
