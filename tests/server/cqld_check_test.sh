#!/usr/bin/env bash
# server.cqld_check: `cqld --check` and the quarantine of a damaged table, with the real binaries.
#
#   tests/server/cqld_check_test.sh CQLD_BINARY DAMAGE_TOOL [CQL_BINARY]
#
# Creates two tables with `cql --data`, checks that `cqld --data DIR --check` reports them clean
# (exit 0), damages one table's stored definition with DAMAGE_TOOL (damage_catalog_entry), then
# checks that: --check names it QUARANTINED and exits 1; `cql --data` still serves the other
# table; cqld starts (logging the quarantine), serves the other table over the network, refuses
# CREATE of the quarantined name with a message pointing at --check, and --check refuses a
# directory a running cqld holds. CQL_BINARY defaults to the `cql` beside CQLD_BINARY.
set -euo pipefail

cqld=$1
damage=$2
cql=${3:-$(dirname "$cqld")/cql}
tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "cqld_check_test: $*" >&2
  for f in check out err cql; do
    [ -f "$tmp/$f" ] && sed "s/^/  $f: /" "$tmp/$f" >&2
  done
  exit 1
}

# check EXPECTED_STATUS: runs `cqld --check` into $tmp/check.
check() {
  set +e
  "$cqld" --data "$tmp/data" --check >"$tmp/check" 2>&1
  status=$?
  set -e
  [ "$status" -eq "$1" ] || fail "--check exited $status, not $1"
}

# 1. Two tables, then a clean check.
"$cql" --data "$tmp/data" -e "
  CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
  CREATE TABLE k.broken (k int PRIMARY KEY, v text);
  CREATE TABLE k.fine (k int PRIMARY KEY, v text);
  INSERT INTO k.broken (k, v) VALUES (1, 'kept');
  INSERT INTO k.fine (k, v) VALUES (1, 'served');" >"$tmp/cql" 2>&1 || fail "cql --data failed"
check 0
grep -q "^  table k.fine (id [0-9a-f-]*): ok$" "$tmp/check" || fail "k.fine not reported ok"
grep -q "^summary: 1 keyspaces, 0 types, 2 tables, 0 views, 0 indexes; 0 damaged$" "$tmp/check" ||
  fail "unexpected summary"

# 2. Damage k.broken's definition: --check reports it and exits 1.
"$damage" "$tmp/data" k broken || fail "the damage tool failed"
check 1
grep -q "^QUARANTINED table k.broken (id [0-9a-f-]*): Corrupted schema catalogue: " \
  "$tmp/check" || fail "k.broken not reported quarantined"
grep -q "^  table k.fine (id [0-9a-f-]*): ok$" "$tmp/check" || fail "k.fine not reported ok"
grep -q "^column family [0-9a-f-]*: no live table, view or index uses it; kept" "$tmp/check" ||
  fail "k.broken's data not reported kept"

# 3. The embedded shell opens the directory and serves the other table.
"$cql" --data "$tmp/data" -e "SELECT v FROM k.fine WHERE k = 1" >"$tmp/cql" 2>&1 ||
  fail "cql --data does not open a directory with a quarantined table"
grep -q "served" "$tmp/cql" || fail "cql --data did not serve k.fine"
grep -q "quarantined table k.broken" "$tmp/cql" || fail "cql --data logged no quarantine"

# 4. cqld starts, logs the quarantine, serves the rest, refuses the quarantined name.
"$cqld" --data "$tmp/data" --port 0 --admin-port 0 >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 200); do
  [ -s "$tmp/out" ] && break
  kill -0 "$pid" 2>/dev/null || fail "cqld exited before it was ready"
  sleep 0.05
done
[[ "$(head -n 1 "$tmp/out")" =~ ^cqld\ listening\ on\ 127\.0\.0\.1:([0-9]+)\  ]] ||
  fail "no ready line"
port=${BASH_REMATCH[1]}
grep -q "Z E .*quarantined table k.broken (id [0-9a-f-]*)" "$tmp/err" ||
  fail "cqld logged no ERROR line for the quarantine"
"$cql" 127.0.0.1 "$port" -e "SELECT v FROM k.fine WHERE k = 1" >"$tmp/cql" 2>&1 ||
  fail "cqld did not serve k.fine"
grep -q "served" "$tmp/cql" || fail "cqld did not return k.fine's row"
set +e
"$cql" 127.0.0.1 "$port" -e "CREATE TABLE k.broken (k int PRIMARY KEY)" >"$tmp/cql" 2>&1
status=$?
set -e
[ "$status" -eq 2 ] || fail "CREATE of the quarantined name exited $status, not 2"
grep -q "is quarantined.*cqld --data DIR --check" "$tmp/cql" || fail "no pointer to --check"
check 1
grep -q "in use by another process" "$tmp/check" || fail "--check did not refuse a busy directory"
kill -TERM "$pid"
set +e
wait "$pid"
status=$?
set -e
pid=
[ "$status" -eq 0 ] || fail "cqld exited $status after SIGTERM"

# 5. A directory that does not exist cannot be checked.
set +e
"$cqld" --data "$tmp/none" --check >"$tmp/check" 2>&1
status=$?
set -e
[ "$status" -eq 1 ] || fail "--check of a missing directory exited $status, not 1"
[ ! -e "$tmp/none" ] || fail "--check created the directory"
echo "cqld_check_test: ok"
