#!/usr/bin/env bash
# shell.cli: the real `cql` binary on a data directory (issue 3: "the seeds' CQL and Q1-Q9 run
# verbatim through the embedded API and the command line").
#
#   tests/shell/cli_test.sh CQL_BINARY REPOSITORY_ROOT
#
# Loads the seeds' schema with -f, reads it back from a second process (the data persisted),
# checks an error's wording and exit status, runs Q1-Q9 and compares the output with
# tests/shell/hotel_q1_q9.expected, and checks that syntax-check mode still works without
# --data.
set -euo pipefail

cql=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$tmp/data  # does not exist yet: cql creates it

fail() {
  echo "cli_test: $*" >&2
  exit 1
}

# Runs cql with the given arguments, output in $tmp/out and $tmp/err, exit status in $status.
run() {
  set +e
  "$cql" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
  set -e
}

# 1. The seeds' schema, verbatim: DDL prints nothing.
for seed in 001_hotel 001_reservation; do
  run --data "$data" -f "$root/tests/data/seeds/$seed.cql"
  [ "$status" -eq 0 ] || fail "loading $seed.cql exited $status: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] || fail "loading $seed.cql printed: $(cat "$tmp/out" "$tmp/err")"
done

# 2. A second process sees the schema (durability batch, to exercise the flag).
run --data "$data" --durability batch -e "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'hotel'"
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

# 3. An error: cqlsh's wording on stderr, `<stdin>:1:` for -e, exit status 2; the statements
# after it still run.
run --data "$data" -e "SELECT * FROM hotel.nope; USE hotel; SELECT count(*) FROM hotels"
[ "$status" -eq 2 ] || fail "a failed statement exited $status, not 2"
expected_error='<stdin>:1:InvalidRequest: Error from server: code=2200 [Invalid query] message="table nope does not exist"'
[ "$(cat "$tmp/err")" = "$expected_error" ] || fail "unexpected error text: $(cat "$tmp/err")"
grep -qx '     0' "$tmp/out" || fail "the statements after the error did not run: $(cat "$tmp/out")"

# A syntax error in a file: file name and line of the statement.
printf 'USE hotel;\n\n-- broken\nSELEC * FROM hotels;\n' >"$tmp/broken.cql"
run --data "$data" -f "$tmp/broken.cql"
[ "$status" -eq 2 ] || fail "a syntax error exited $status, not 2"
grep -q "^$tmp/broken.cql:4:SyntaxException: line 1:0 " "$tmp/err" || fail "unexpected syntax error: $(cat "$tmp/err")"

# 4. Q1-Q9 from the command line, compared with the expected output.
run --data "$data" -f "$root/tests/data/seeds/hotel_q1_q9.cql"
[ "$status" -eq 0 ] || fail "hotel_q1_q9.cql exited $status: $(cat "$tmp/err")"
diff -u "$root/tests/shell/hotel_q1_q9.expected" "$tmp/out" || fail "Q1-Q9 output differs"

# Piped standard input works like a file named <stdin>.
set +e
printf "SELECT name FROM hotel.hotels WHERE id = 'AZ123';\n" | "$cql" --data "$data" >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
[ "$status" -eq 0 ] && grep -qx ' Super Hotel Paris' "$tmp/out" || fail "piped input: $(cat "$tmp/out" "$tmp/err")"

# 5. Without --data: syntax-check mode.
run -e "select * from t where k=1"
[ "$status" -eq 0 ] || fail "syntax-check mode exited $status"
[ "$(cat "$tmp/out")" = "SELECT * FROM t WHERE k = 1;" ] || fail "syntax-check output: $(cat "$tmp/out")"

# Usage errors.
run --durability batch
[ "$status" -eq 2 ] || fail "--durability without --data exited $status, not 2"
run --data "$data" -f "$tmp/missing.cql"
[ "$status" -eq 1 ] || fail "a missing -f file exited $status, not 1"
grep -q "^Can't open '$tmp/missing.cql': \[Errno 2\] No such file or directory" "$tmp/err" ||
  fail "unexpected missing-file error: $(cat "$tmp/err")"

echo "cli_test: ok"
