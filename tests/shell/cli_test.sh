#!/usr/bin/env bash
# shell.cli: the real `cql` binary end to end, on a data directory (`--data`) and over the
# network against a `cqld` this script starts (port 0; always stopped).
#
#   tests/shell/cli_test.sh CQL_BINARY REPOSITORY_ROOT [CQLD_BINARY]
#
# CQLD_BINARY defaults to the `cqld` beside CQL_BINARY. The same suite runs on both targets:
#   1. the seeds' schema with -f (DDL prints nothing), read back by a second process;
#   2. errors in cqlsh's wording, `<stdin>:1:` / `file:line:` prefixes, exit status 2;
#   3. Q1-Q9 compared with tests/shell/hotel_q1_q9.expected, and piped standard input;
#   4. COPY TO then FROM of the seeds' tables with collections, UDTs, static columns and nulls,
#      plus a bad row reported with its line number and written to the error file;
#   5. `DESCRIBE SCHEMA` fed into an empty database recreates the same schema, for the seeds
#      and for their materialized-view variant;
#   6. the issue's "done when": a new user SOURCEs the seeds, loads availability rows with
#      COPY FROM, answers Q1-Q9 and describes the schema, in one scripted session;
#   and TRACING ON prints each statement's trace as cqlsh does.
# Then the pseudo-terminal test (pty_test.py: prompt, multi-line statement, history file, Tab
# completion, PAGING with ---MORE---, EXPAND, EXIT) on both targets, and the usage errors.
set -euo pipefail

cql=$1
root=$2
cqld=${3:-$(dirname "$cql")/cqld}
tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
seeds=$root/tests/data/seeds

fail() {
  echo "cli_test [${label:-}]: $*" >&2
  exit 1
}

[ -x "$cqld" ] || fail "no cqld binary at $cqld"

# Runs cql with the target's arguments and the given ones: output in $tmp/out and $tmp/err,
# exit status in $status.
run() {
  set +e
  "$cql" "${target[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
  set -e
}

# Starts a cqld on a fresh data directory $1; sets $port.
start_cqld() {
  local dir=$1
  mkdir -p "$dir"
  "$cqld" --data "$dir/data" --port 0 --admin-port 0 >"$dir/cqld.out" 2>"$dir/cqld.err" &
  pids+=($!)
  local pid=$!
  for _ in $(seq 1 300); do
    [ -s "$dir/cqld.out" ] && break
    kill -0 "$pid" 2>/dev/null || fail "cqld exited before it was ready: $(cat "$dir/cqld.err")"
    sleep 0.05
  done
  port=$(sed -nE 's/^cqld listening on 127\.0\.0\.1:([0-9]+) .*/\1/p' "$dir/cqld.out")
  [ -n "$port" ] || fail "unexpected cqld ready line: $(cat "$dir/cqld.out")"
}

# Sets target=(...) to a fresh, empty database of the current mode, in directory $1.
fresh_target() {
  if [ "$mode" = data ]; then
    target=(--data "$1")
  else
    start_cqld "$1"
    target=(127.0.0.1 "$port")
  fi
}

# The Q1-Q9 script without its availability batch (COPY FROM loads those rows instead).
python3 - "$seeds/hotel_q1_q9.cql" "$tmp/q1_q9_without_rooms.cql" <<'PY'
import sys
text = open(sys.argv[1]).read()
start = text.index("BEGIN UNLOGGED BATCH")
end = text.index("APPLY BATCH;", start) + len("APPLY BATCH;")
open(sys.argv[2], "w").write(text[:start] + text[end:])
PY
# Availability rows: the six AZ123 rows Q4 reads, and 2,000 rows of twenty other hotels.
python3 - "$tmp/rooms.csv" <<'PY'
import datetime, sys
with open(sys.argv[1], "w") as f:
    f.write("hotel_id,date,room_number,is_available\n")
    for day, room, available in [(1, 101, True), (1, 102, True), (2, 101, False),
                                 (2, 102, True), (3, 101, True), (5, 101, True)]:
        f.write("AZ123,2016-01-%02d,%d,%s\n" % (day, room, available))
    start = datetime.date(2016, 1, 1)
    for hotel in range(20):
        for day in range(10):
            for room in range(10):
                f.write("H%03d,%s,%d,%s\n" % (hotel, start + datetime.timedelta(days=day),
                                             100 + room, "True" if (hotel + day + room) % 3 else "False"))
PY

suite() {
  mode=$1
  label=$mode
  local dir=$tmp/$mode
  mkdir -p "$dir"
  fresh_target "$dir/main"
  local main=("${target[@]}")

  # 1. The seeds' schema, verbatim: DDL prints nothing.
  for seed in 001_hotel 001_reservation; do
    run -f "$seeds/$seed.cql"
    [ "$status" -eq 0 ] || fail "loading $seed.cql exited $status: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] || fail "loading $seed.cql printed: $(cat "$tmp/out" "$tmp/err")"
  done

  # A second process sees the schema (with --data: durability batch, to exercise the flag).
  if [ "$mode" = data ]; then
    run --durability batch -e "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'hotel'"
  else
    run -e "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'hotel'"
  fi
  [ "$status" -eq 0 ] || fail "SELECT exited $status: $(cat "$tmp/err")"
  diff -u - "$tmp/out" <<'EXPECTED' || fail "unexpected tables of keyspace hotel"

 table_name
-------------------------------
             amenities_by_room
 available_rooms_by_hotel_date
                        hotels
                 hotels_by_poi
                 pois_by_hotel

(5 rows)
EXPECTED

  # 2. An error: cqlsh's wording on stderr, `<stdin>:1:` for -e, exit status 2; the statements
  # after it still run.
  run -e "SELECT * FROM hotel.nope; USE hotel; SELECT count(*) FROM hotels"
  [ "$status" -eq 2 ] || fail "a failed statement exited $status, not 2"
  expected_error='<stdin>:1:InvalidRequest: Error from server: code=2200 [Invalid query] message="table nope does not exist"'
  [ "$(cat "$tmp/err")" = "$expected_error" ] || fail "unexpected error text: $(cat "$tmp/err")"
  grep -qx '     0' "$tmp/out" || fail "the statements after the error did not run: $(cat "$tmp/out")"

  # -k chooses the keyspace.
  run -k hotel -e "SELECT count(*) FROM hotels"
  [ "$status" -eq 0 ] && grep -qx '     0' "$tmp/out" || fail "-k hotel: $(cat "$tmp/out" "$tmp/err")"

  # A syntax error in a file: file name and line of the statement.
  printf 'USE hotel;\n\n-- broken\nSELEC * FROM hotels;\n' >"$tmp/broken.cql"
  run -f "$tmp/broken.cql"
  [ "$status" -eq 2 ] || fail "a syntax error exited $status, not 2"
  grep -q "^$tmp/broken.cql:4:SyntaxException: line 1:0 " "$tmp/err" || fail "unexpected syntax error: $(cat "$tmp/err")"

  # TRACING ON: each statement's trace after its result, as cqlsh prints it.
  run -e "TRACING ON; SELECT name FROM hotel.hotels WHERE id = 'AZ123'; TRACING OFF"
  [ "$status" -eq 0 ] || fail "TRACING ON exited $status: $(cat "$tmp/err")"
  for line in 'Now Tracing is enabled' 'Tracing session: [0-9a-f-]\{36\}' \
      ' activity  *| timestamp  *| source  *| source_elapsed | client' \
      ' *Execute CQL3 query | [0-9-]* [0-9:.]* | 127.0.0.1 |  *0 | 127.0.0.1' \
      ' *Executing single-partition query on hotels \[thread-[0-9]*\] | .*' \
      ' *Request complete | .* | 127.0.0.1 |  *[0-9]* | 127.0.0.1' 'Disabled Tracing.'; do
    grep -qx "$line" "$tmp/out" || fail "no line '$line' in the trace: $(cat "$tmp/out")"
  done

  # 3. Q1-Q9 from the command line, compared with the expected output.
  run -f "$seeds/hotel_q1_q9.cql"
  [ "$status" -eq 0 ] || fail "hotel_q1_q9.cql exited $status: $(cat "$tmp/err")"
  diff -u "$root/tests/shell/hotel_q1_q9.expected" "$tmp/out" || fail "Q1-Q9 output differs"

  # Piped standard input works like a file named <stdin>.
  set +e
  printf "SELECT name FROM hotel.hotels WHERE id = 'AZ123';\n" | "$cql" "${target[@]}" >"$tmp/out" 2>"$tmp/err"
  status=$?
  set -e
  [ "$status" -eq 0 ] && grep -qx ' Super Hotel Paris' "$tmp/out" || fail "piped input: $(cat "$tmp/out" "$tmp/err")"

  # 4. COPY TO, then FROM into the emptied tables: collections, UDTs, a static column, nulls.
  for table in reservation.guests hotel.hotels_by_poi hotel.hotels; do
    run -e "SELECT * FROM $table"
    cp "$tmp/out" "$dir/before.txt"
    run -e "COPY $table TO '$dir/copy.csv' WITH HEADER = true"
    [ "$status" -eq 0 ] || fail "COPY $table TO exited $status: $(cat "$tmp/err")"
    grep -qE "^[0-9]+ rows exported to 1 files in [0-9.]+ seconds\.$" "$tmp/out" ||
      fail "COPY TO summary: $(cat "$tmp/out")"
    run -e "TRUNCATE $table"
    [ "$status" -eq 0 ] || fail "TRUNCATE $table: $(cat "$tmp/err")"
    lines=$(wc -l <"$dir/copy.csv")
    echo 'not-a-uuid-or-anything,"unterminated' >>"$dir/copy.csv"
    run -e "COPY $table FROM '$dir/copy.csv' WITH HEADER = true AND ERRFILE = '$dir/copy.err'"
    if [ "$table" = reservation.guests ]; then
      # The appended row has the wrong number of fields: reported with its line, load goes on.
      [ "$status" -eq 2 ] || fail "COPY FROM with a bad row exited $status"
      grep -q "^Failed to import 1 rows: ParseError - .* (line $((lines + 1))),  given up without retries$" "$tmp/err" ||
        fail "bad row report: $(cat "$tmp/err")"
      grep -q "^Failed to process 1 rows; failed rows written to $dir/copy.err$" "$tmp/err" ||
        fail "bad row summary: $(cat "$tmp/err")"
      [ "$(cat "$dir/copy.err")" = 'not-a-uuid-or-anything,"unterminated' ] || fail "error file: $(cat "$dir/copy.err")"
    fi
    grep -qE "^[0-9]+ rows imported from 1 files in [0-9.]+ seconds \(0 skipped\)\.$" "$tmp/out" ||
      fail "COPY FROM summary: $(cat "$tmp/out")"
    run -e "SELECT * FROM $table"
    diff -u "$dir/before.txt" "$tmp/out" || fail "$table differs after COPY TO and FROM"
  done
  run -e "COPY hotel.hotels TO 'x.csv' WITH MAXBATCHSIZE = 2"
  [ "$status" -eq 2 ] && [ "$(cat "$tmp/err")" = "<stdin>:1:Unrecognized COPY TO options: maxbatchsize" ] ||
    fail "unknown COPY option: $(cat "$tmp/err")"

  # 5. DESCRIBE SCHEMA recreates the schema in an empty database, for the seeds (001) and for
  # their materialized-view variant (003).
  run -e "DESCRIBE SCHEMA"
  [ "$status" -eq 0 ] || fail "DESCRIBE SCHEMA exited $status: $(cat "$tmp/err")"
  cp "$tmp/out" "$dir/schema_001.cql"
  fresh_target "$dir/copy_001"
  run -f "$dir/schema_001.cql"
  [ "$status" -eq 0 ] || fail "replaying DESCRIBE SCHEMA exited $status: $(cat "$tmp/err")"
  run -e "DESCRIBE SCHEMA"
  diff -u "$dir/schema_001.cql" "$tmp/out" || fail "the replayed 001 schema differs"

  fresh_target "$dir/seeds_003"
  for seed in 003_hotel 003_reservation_with_view; do
    run -f "$seeds/$seed.cql"
    [ "$status" -eq 0 ] || fail "loading $seed.cql exited $status: $(cat "$tmp/err")"
  done
  run -e "DESCRIBE SCHEMA"
  cp "$tmp/out" "$dir/schema_003.cql"
  grep -q "^CREATE MATERIALIZED VIEW reservation.reservations_by_confirmation AS" "$dir/schema_003.cql" ||
    fail "no view in DESCRIBE SCHEMA of 003"
  fresh_target "$dir/copy_003"
  run -f "$dir/schema_003.cql"
  [ "$status" -eq 0 ] || fail "replaying the 003 schema exited $status: $(cat "$tmp/err")"
  run -e "DESCRIBE SCHEMA"
  diff -u "$dir/schema_003.cql" "$tmp/out" || fail "the replayed 003 schema differs"

  # 6. The issue's "done when", as one scripted session of a new user.
  fresh_target "$dir/new_user"
  cat >"$dir/new_user.cql" <<SCRIPT
SOURCE '$seeds/001_hotel.cql'
SOURCE '$seeds/001_reservation.cql'
COPY hotel.available_rooms_by_hotel_date (hotel_id, date, room_number, is_available) FROM '$tmp/rooms.csv' WITH HEADER = true AND MAXBATCHSIZE = 20;
SELECT count(*) FROM hotel.available_rooms_by_hotel_date WHERE hotel_id = 'H007';
SOURCE '$tmp/q1_q9_without_rooms.cql'
DESCRIBE KEYSPACES
DESCRIBE SCHEMA
SCRIPT
  run -f "$dir/new_user.cql"
  [ "$status" -eq 0 ] || fail "the new user's session exited $status: $(cat "$tmp/err")"
  python3 - "$tmp/out" "$root/tests/shell/hotel_q1_q9.expected" "$dir/schema_001.cql" <<'PY' ||
import re, sys
out = open(sys.argv[1]).read()
q1_q9 = open(sys.argv[2]).read()
schema = open(sys.argv[3]).read()
assert re.search(r"\n2006 rows imported from 1 files in [0-9.]+ seconds \(0 skipped\)\.\n", out), out[:800]
assert "\n count\n-------\n   100\n\n(1 rows)\n" in out, "H007 count"
assert q1_q9 in out, "Q1-Q9 answers differ"
assert re.search(r"(?m)^hotel +system +system_schema +system_views *\n"
                 r"reservation +system_auth +system_traces +system_virtual_schema$", out), \
    "DESCRIBE KEYSPACES"
assert out.endswith(schema), "DESCRIBE SCHEMA differs from the seeds' schema"
PY
    fail "the new user's session printed: $(head -c 3000 "$tmp/out")"

  # The pseudo-terminal session.
  HOME=$dir/home python3 "$root/tests/shell/pty_test.py" "$cql" "${main[@]}" ||
    fail "pty_test.py failed"
}

suite data
suite network

label=misc
# Syntax-check mode.
target=()
run --syntax-check -e "select * from t where k=1"
[ "$status" -eq 0 ] || fail "syntax-check mode exited $status"
[ "$(cat "$tmp/out")" = "SELECT * FROM t WHERE k = 1;" ] || fail "syntax-check output: $(cat "$tmp/out")"

# Usage errors.
run --durability batch
[ "$status" -eq 2 ] || fail "--durability without --data exited $status, not 2"
run --data "$tmp/data" -f "$tmp/missing.cql"
[ "$status" -eq 1 ] || fail "a missing -f file exited $status, not 1"
grep -q "^Can't open '$tmp/missing.cql': \[Errno 2\] No such file or directory" "$tmp/err" ||
  fail "unexpected missing-file error: $(cat "$tmp/err")"
run 127.0.0.1 notaport -e "SELECT 1"
[ "$status" -eq 2 ] || fail "a bad port exited $status, not 2"

# No server: cqlsh's connection error, exit status 1. (Port 1 is never a cqld.)
run 127.0.0.1 1 -e "SELECT * FROM system.local"
[ "$status" -eq 1 ] || fail "an unreachable server exited $status, not 1"
[ "$(cat "$tmp/err")" = "Connection error: ('Unable to connect to any servers', {'127.0.0.1:1': ConnectionRefusedError(111, \"Tried connecting to [('127.0.0.1', 1)]. Last error: Connection refused\")})" ] ||
  fail "unexpected connection error: $(cat "$tmp/err")"

echo "cli_test: ok"
