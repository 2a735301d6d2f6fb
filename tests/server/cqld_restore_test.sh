#!/usr/bin/env bash
# server.admin_restore: a snapshot restores every row as it was (docs/operations.md §6).
#
#   tests/server/cqld_restore_test.sh CQLD_BINARY CQL_BINARY
#
# Writes rows through CQL (a table with clustering rows, collections and a TTL-free static
# column, a second keyspace, an index and a view), takes `cqld admin snapshot -t before`,
# records every row, then changes, deletes, truncates and drops data, stops cqld, restores the
# snapshot with exactly the commands docs/operations.md §6 gives, starts cqld and compares every
# row with the record. The snapshot is still listed after the restore.
set -euo pipefail

# shellcheck source=cqld_admin_lib.sh
. "$(dirname "$0")/cqld_admin_lib.sh"
admin_test_setup "$@"

DATA=$tmp/data
start_cqld cqld "$DATA"
statements="CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE shop.orders (customer text, id int, total decimal, items list<text>, note text static,
  PRIMARY KEY (customer, id));
CREATE INDEX orders_total ON shop.orders (total);
CREATE MATERIALIZED VIEW shop.by_id AS SELECT customer, id, total, items FROM shop.orders
  WHERE id IS NOT NULL AND customer IS NOT NULL PRIMARY KEY (id, customer);
CREATE KEYSPACE audit WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE audit.log (day date, at timeuuid, what text, PRIMARY KEY (day, at));"
for c in 1 2 3 4 5; do
  statements+="
UPDATE shop.orders SET note = 'customer $c' WHERE customer = 'c$c';"
  for i in 1 2 3 4; do
    statements+="
INSERT INTO shop.orders (customer, id, total, items) VALUES ('c$c', $((c * 10 + i)), $c.$i, ['a$i', 'b$i']);
INSERT INTO audit.log (day, at, what) VALUES ('2026-11-2$i', now(), 'order $c/$i');"
  done
done
run_cql "$statements"
queries=("SELECT * FROM shop.orders" "SELECT * FROM shop.by_id" "SELECT customer, id FROM shop.orders WHERE total = 3.2"
  "SELECT * FROM audit.log")
record() {
  : >"$1"
  for query in "${queries[@]}"; do
    run_cql "$query"
    cat "$tmp/cql.out" >>"$1"
  done
}
record "$tmp/at-snapshot"
grep -q "(20 rows)" "$tmp/at-snapshot" || fail "rows not written: $(cat "$tmp/at-snapshot")"

expect_admin 0 snapshot -t before

# Change everything after the snapshot.
run_cql "UPDATE shop.orders SET total = 99.9 WHERE customer = 'c1' AND id = 11;
DELETE FROM shop.orders WHERE customer = 'c2';
INSERT INTO shop.orders (customer, id, total) VALUES ('c9', 91, 9.1);
TRUNCATE audit.log;
DROP MATERIALIZED VIEW shop.by_id;"
expect_admin 0 flush
expect_admin 0 compact
stop_cqld

# Restore, as docs/operations.md §6 says (cqld stopped).
mv "$DATA" "$DATA.old"
mkdir "$DATA"
cp -a "$DATA.old/snapshots/before/." "$DATA/"
rm "$DATA/manifest.json"
mv "$DATA.old/snapshots" "$DATA/snapshots"
rm -rf "$DATA.old"

start_cqld cqld-restored "$DATA"
record "$tmp/restored"
diff -u "$tmp/at-snapshot" "$tmp/restored" >&2 || fail "the restored rows differ"
expect_admin 0 listsnapshots
grep -q "^before " <<<"$out" || fail "the snapshot is not listed after the restore: $out"
stop_cqld
"$cqld" --data "$DATA" --check >"$tmp/check" 2>&1 || fail "cqld --check: $(cat "$tmp/check")"
echo "cqld_restore_test: ok"
