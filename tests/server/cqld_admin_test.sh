#!/usr/bin/env bash
# server.admin: every `cqld admin` command against the real cqld (docs/operations.md §4, §5).
#
#   tests/server/cqld_admin_test.sh CQLD_BINARY CQL_BINARY
#
# Starts cqld (free ports, loopback), writes data with `cql`, then checks each command's output
# and exit status: version, status, info, describecluster (their figures against system.local),
# flush, compact, garbagecollect, tablestats, tablehistograms, settraceprobability,
# gettraceprobability, snapshot, listsnapshots,
# clearsnapshot, getlogginglevels, setlogginglevel, getauditlog, enableauditlog, disableauditlog,
# drain; usage errors (2), errors (1), a stalled listener (--timeout), and /metrics. Then with the
# PasswordAuthenticator: refused without credentials, with a wrong password and for a role that
# is not a superuser; accepted for the superuser with -pw, -pwf and $CQLD_ADMIN_PASSWORD; and
# the audit log enabled from the start (--audit-log) records the logins and the DCL, without the
# passwords.
set -euo pipefail

# shellcheck source=cqld_admin_lib.sh
. "$(dirname "$0")/cqld_admin_lib.sh"
admin_test_setup "$@"

start_cqld cqld "$tmp/data" --audit-log-dir "$tmp/audit"
run_cql "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.t (k int PRIMARY KEY, v text) WITH gc_grace_seconds = 0;
CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE other.w (k int PRIMARY KEY);
INSERT INTO ks.t (k, v) VALUES (1, 'one');
INSERT INTO ks.t (k, v) VALUES (2, 'two');
DELETE FROM ks.t WHERE k = 2;"
run_cql "SELECT host_id, release_version, schema_version, data_center, rack FROM system.local"
row=$(grep -E '^ *[0-9a-f]{8}-[0-9a-f]{4}-' "$tmp/cql.out" | head -n 1)
read -r host_id release schema_version dc rack < <(tr -d '|' <<<"$row")
[[ "$host_id" =~ ^[0-9a-f-]{36}$ ]] || fail "no host id from system.local: $(cat "$tmp/cql.out")"

# version, status, info, describecluster: what system.local says.
expect_admin 0 version
[ "$out" = "ReleaseVersion: $release" ] || fail "version printed '$out'"
expect_admin 0 status
grep -qx "Datacenter: $dc" <<<"$out" || fail "status: no datacenter line: $out"
grep -q "^--  Address    Load *Tokens  Owns (effective)  Host ID  *Rack$" <<<"$out" ||
  fail "status: header: $out"
grep -Eq "^UN  127\.0\.0\.1  [0-9.]+ (bytes|KiB|MiB)  *1       100\.0%            $host_id  $rack$" \
  <<<"$out" || fail "status: node line: $out"
expect_admin 0 info
grep -qx "ID                     : $host_id" <<<"$out" || fail "info: ID: $out"
grep -qx "Native Transport active: true" <<<"$out" || fail "info: native transport: $out"
grep -Eqx "Load                   : [0-9.]+ (bytes|KiB|MiB)" <<<"$out" || fail "info: load: $out"
grep -Eqx "Uptime \(seconds\)       : [0-9]+" <<<"$out" || fail "info: uptime: $out"
grep -Eqx "Heap Memory \(MB\)       : [0-9]+\.[0-9]{2} / n/a" <<<"$out" || fail "info: memory: $out"
grep -qx "Data Center            : $dc" <<<"$out" || fail "info: data center: $out"
grep -qx "Rack                   : $rack" <<<"$out" || fail "info: rack: $out"
grep -qx "Key Cache              : n/a" <<<"$out" || fail "info: key cache: $out"
grep -qx "Token                  : -9223372036854775808" <<<"$out" || fail "info: token: $out"
expect_admin 0 describecluster
grep -qx "	Name: Test Cluster" <<<"$out" || fail "describecluster: name: $out"
grep -qx "		$schema_version: \[127.0.0.1\]" <<<"$out" || fail "describecluster: schema: $out"
grep -qx "	ks -> Replication class: SimpleStrategy {replication_factor=1}" <<<"$out" ||
  fail "describecluster: keyspaces: $out"

# flush, compact, garbagecollect: silent on success; a missing keyspace or table is an error.
for command in flush compact garbagecollect; do
  expect_admin 0 "$command"
  [ -z "$out$err" ] || fail "$command printed: $out $err"
  expect_admin 0 "$command" ks
  expect_admin 0 "$command" ks t
  expect_admin 1 "$command" nope
  [ "$err" = "error: Keyspace nope does not exist" ] || fail "$command nope: '$err'"
  expect_admin 1 "$command" ks nope
  [ "$err" = "error: Unknown keyspace/cf pair (ks.nope)" ] || fail "$command ks nope: '$err'"
done
ls "$tmp"/data/*.sst >/dev/null 2>&1 || fail "flush wrote no table file"

# tablestats and tablehistograms: figures from the flushed files and the writes above.
expect_admin 0 tablestats ks
grep -qx "Total number of tables: 1" <<<"$out" || fail "tablestats ks: count: $out"
grep -qx "Keyspace : ks" <<<"$out" || fail "tablestats: keyspace: $out"
grep -qx "		Table: t" <<<"$out" || fail "tablestats: table: $out"
grep -Eqx "		SSTable count: [1-9][0-9]*" <<<"$out" || fail "tablestats: sstables: $out"
grep -Eqx "		Number of partitions \(estimate\): [12]" <<<"$out" || fail "tablestats: partitions: $out"
grep -Eqx "		Local write count: 3" <<<"$out" || fail "tablestats: writes: $out"
grep -Eqx "		Local write latency: [0-9]+\.[0-9]{3} ms" <<<"$out" || fail "tablestats: latency: $out"
grep -Eqx "		Compacted partition maximum bytes: [1-9][0-9]*" <<<"$out" ||
  fail "tablestats: partition size: $out"
expect_admin 0 tablestats
grep -qx "Keyspace : other" <<<"$out" || fail "tablestats: all keyspaces: $out"
grep -qx "Total number of tables: 2" <<<"$out" || fail "tablestats: all tables: $out"
expect_admin 0 tablestats other.w
grep -qx "		Table: w" <<<"$out" || fail "tablestats other.w: $out"
expect_admin 1 tablestats nope
[ "$err" = "error: Unknown keyspace or table: nope" ] || fail "tablestats nope: '$err'"
expect_admin 0 tablehistograms ks t
grep -qx "ks/t histograms" <<<"$out" || fail "tablehistograms: title: $out"
grep -Eq "^Percentile +Read Latency +Write Latency +Partition Size +Cell Count$" <<<"$out" ||
  fail "tablehistograms: header: $out"
for row in 50% 75% 95% 98% 99% Min Max; do
  grep -Eq "^$row +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9]+ +[0-9]+$" <<<"$out" ||
    fail "tablehistograms: row $row: $out"
done
grep -Eq "^Max +[0-9.]+ +[0-9]*[1-9][0-9]*\.[0-9]{2} +[1-9]" <<<"$out" ||
  fail "tablehistograms: no write latency or partition size: $out"
expect_admin 0 tablehistograms ks.t

# Trace probability: what it is set to is what a query finds sampled into system_traces.
expect_admin 0 gettraceprobability
[ "$out" = "Current trace probability: 0" ] || fail "gettraceprobability: '$out'"
expect_admin 1 settraceprobability 1.5
[ "$err" = "error: Trace probability must be between 0 and 1" ] || fail "settrace 1.5: '$err'"
expect_admin 0 settraceprobability 1
expect_admin 0 gettraceprobability
[ "$out" = "Current trace probability: 1" ] || fail "gettraceprobability after 1: '$out'"
run_cql "SELECT v FROM ks.t WHERE k = 1"
expect_admin 0 settraceprobability 0
run_cql "SELECT parameters FROM system_traces.sessions"
grep -q "SELECT v FROM ks.t WHERE k = 1" "$tmp/cql.out" ||
  fail "a sampled query is not in system_traces.sessions: $(cat "$tmp/cql.out")"
expect_admin 1 tablehistograms ks nope
expect_admin 2 tablehistograms ks

# snapshot, listsnapshots, clearsnapshot.
expect_admin 0 listsnapshots
[ "$out" = $'Snapshot Details: \nThere are no snapshots' ] || fail "listsnapshots (none): '$out'"
expect_admin 0 snapshot -t first ks
[ "$out" = $'Requested creating snapshot(s) for [ks] with snapshot name [first] and options {skipFlush=false}\nSnapshot directory: first' ] ||
  fail "snapshot printed '$out'"
[ -f "$tmp/data/snapshots/first/manifest.json" ] || fail "no snapshot folder"
expect_admin 1 snapshot -t first
[ "$err" = "error: Snapshot first already exists." ] || fail "snapshot again: '$err'"
expect_admin 1 snapshot -t ../escape
[[ "$err" == "error: Invalid snapshot name '../escape'"* ]] || fail "bad tag: '$err'"
expect_admin 1 snapshot -t x nope
[ "$err" = "error: Keyspace nope does not exist" ] || fail "snapshot nope: '$err'"
expect_admin 0 snapshot
grep -Eq "with snapshot name \[[0-9]{13}\]" <<<"$out" || fail "default tag: $out"
expect_admin 0 listsnapshots
grep -qx "Snapshot Details: " <<<"$out" || fail "listsnapshots: $out"
grep -Eq "^Snapshot name +Keyspace name +Column family name +True size +Size on disk +Creation time$" \
  <<<"$out" || fail "listsnapshots header: $out"
grep -Eq "^first +ks +t +0 bytes +[0-9.]+ (bytes|KiB) +20[0-9-]+T[0-9:]+Z$" <<<"$out" ||
  fail "listsnapshots: no row for ks.t: $out"
grep -Eq "^first +other +w " <<<"$out" || fail "listsnapshots: every table is in it: $out"
grep -Eq "^first +- +catalogue " <<<"$out" || fail "listsnapshots: catalogue: $out"
grep -Eq "^Total TrueDiskSpaceUsed: [0-9.]+ (bytes|KiB|MiB)$" <<<"$out" || fail "total: $out"
expect_admin 1 clearsnapshot
[ "$err" = "error: Specify snapshot name or --all" ] || fail "clearsnapshot: '$err'"
expect_admin 1 clearsnapshot -t first --all
expect_admin 0 clearsnapshot -t first
[ "$out" = "Requested clearing snapshot(s) for [all keyspaces] with snapshot name [first]" ] ||
  fail "clearsnapshot printed '$out'"
[ ! -e "$tmp/data/snapshots/first" ] || fail "snapshot first not cleared"
expect_admin 0 clearsnapshot --all
[ "$out" = "Requested clearing snapshot(s) for [all keyspaces] with [all snapshots]" ] ||
  fail "clearsnapshot --all printed '$out'"
[ -z "$(ls -A "$tmp/data/snapshots")" ] || fail "clearsnapshot --all left $(ls "$tmp/data/snapshots")"

# Logging levels.
expect_admin 0 getlogginglevels
[ "$out" = "$(printf '\n%-50s%10s\n%-50s%10s' 'Logger Name' 'Log Level' ROOT INFO)" ] ||
  fail "getlogginglevels printed '$out'"
expect_admin 0 setlogginglevel ROOT DEBUG
expect_admin 0 getlogginglevels
grep -Eq "^ROOT +DEBUG$" <<<"$out" || fail "level not DEBUG: $out"
expect_admin 0 setlogginglevel TRACE
expect_admin 0 getlogginglevels
grep -Eq "^ROOT +DEBUG$" <<<"$out" || fail "TRACE is DEBUG: $out"
expect_admin 1 setlogginglevel org.apache.cassandra DEBUG
expect_admin 1 setlogginglevel ROOT LOUD
expect_admin 0 setlogginglevel
expect_admin 0 getlogginglevels
grep -Eq "^ROOT +INFO$" <<<"$out" || fail "reset: $out"

# The audit log: off by default; enableauditlog with nodetool's options, getauditlog, the file,
# disableauditlog.
expect_admin 0 getauditlog
grep -Eqx "enabled +false" <<<"$out" || fail "getauditlog: enabled: $out"
grep -Eqx "logger +FileAuditLogger" <<<"$out" || fail "getauditlog: logger: $out"
grep -Eqx "audit_logs_dir +$tmp/audit" <<<"$out" || fail "getauditlog: dir: $out"
grep -Eqx "excluded_keyspaces +system,system_schema,system_virtual_schema" <<<"$out" ||
  fail "getauditlog: excluded_keyspaces: $out"
[ ! -e "$tmp/audit/audit.log" ] || fail "an audit log while disabled"
expect_admin 1 enableauditlog --logger BinAuditLogger
[ "$err" = "error: Audit logger BinAuditLogger is not supported: cqld writes the audit log as text lines; use FileAuditLogger" ] ||
  fail "BinAuditLogger: '$err'"
expect_admin 1 enableauditlog --blocking maybe
[ "$err" = "error: Invalid [maybe]. Blocking only accepts 'true' or 'false'." ] || fail "--blocking: '$err'"
expect_admin 1 enableauditlog --included-categories DDL,WRITES
expect_admin 1 enableauditlog --archive-command "/bin/true %path"
expect_admin 2 getauditlog --logger FileAuditLogger
expect_admin 0 enableauditlog --included-categories ddl,DML --excluded-keyspaces other --blocking false
[ -z "$out$err" ] || fail "enableauditlog printed: $out $err"
expect_admin 0 getauditlog
grep -Eqx "enabled +true" <<<"$out" || fail "getauditlog after enable: $out"
grep -Eqx "included_categories +DDL,DML" <<<"$out" || fail "getauditlog: categories: $out"
grep -Eqx "excluded_keyspaces +other" <<<"$out" || fail "getauditlog: keyspaces: $out"
run_cql "INSERT INTO ks.t (k, v) VALUES (7, 'seven');
INSERT INTO other.w (k) VALUES (7);
SELECT * FROM ks.t WHERE k = 7;
CREATE TABLE ks.audited (k int PRIMARY KEY);"
expect_admin 0 disableauditlog
expect_admin 0 getauditlog
grep -Eqx "enabled +false" <<<"$out" || fail "getauditlog after disable: $out"
run_cql "DROP TABLE ks.audited"
audit=$(cat "$tmp/audit/audit.log")
grep -Eq "^user:anonymous\|host:127\.0\.0\.1:7000\|source:/127\.0\.0\.1\|port:[0-9]+\|timestamp:[0-9]+\|type:UPDATE\|category:DML\|ks:ks\|scope:t\|operation:INSERT INTO ks\.t \(k, v\) VALUES \(7, 'seven'\)$" \
  <<<"$audit" || fail "audit log: no INSERT line: $audit"
grep -q "|type:CREATE_TABLE|category:DDL|ks:ks|scope:audited|" <<<"$audit" || fail "audit log: no DDL: $audit"
! grep -q "ks:other\||type:SELECT\||type:DROP_TABLE" <<<"$audit" || fail "audit log: filters: $audit"

# Usage errors, and a listener that is not there.
expect_admin 2
expect_admin 2 bogus
expect_admin 2 status --bogus
expect_admin 2 version extra
status=0
"$cqld" admin --admin-port 1 status >"$tmp/admin.out" 2>"$tmp/admin.err" || status=$?
[ "$status" -eq 1 ] || fail "an unreachable listener exited $status"
grep -q "^cqld admin: Failed to connect to '127.0.0.1:1': " "$tmp/admin.err" || fail "$(cat "$tmp/admin.err")"
# A listener that accepts and never answers: --timeout gives up (exit 1) instead of hanging;
# `timeout 30` fails the test if the client hangs.
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
conns = []
while True:
    conns.append(s.accept()[0])
' >"$tmp/stall.port" &
stall_pid=$!
for _ in $(seq 1 100); do [ -s "$tmp/stall.port" ] && break; sleep 0.05; done
status=0
timeout 30 "$cqld" admin --admin-port "$(cat "$tmp/stall.port")" --timeout 1 status \
  >"$tmp/admin.out" 2>"$tmp/admin.err" || status=$?
kill "$stall_pid" 2>/dev/null || true
[ "$status" -eq 1 ] || fail "a stalled listener: exited $status, not 1"
grep -q "^cqld admin: Error talking to '127.0.0.1:[0-9]*': timed out after 1 s$" "$tmp/admin.err" ||
  fail "a stalled listener: $(cat "$tmp/admin.err")"
expect_admin 2 --timeout soon status

# /metrics: Prometheus text, no credentials; a scrape before and after some CQL work shows the
# request, latency and per-table series moving.
scrape() {
  python3 - "$admin_port" "$1" <<'PY' || fail "/metrics"
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=10) as r:
    assert r.status == 200, r.status
    assert r.headers["Content-Type"] == "text/plain; version=0.0.4", r.headers["Content-Type"]
    open(sys.argv[2], "wb").write(r.read())
PY
}
# metric FILE NAME{labels}: the sample's value (0 when absent).
metric() { awk -v name="$2" '$1 == name { print $2; found = 1 } END { if (!found) print 0 }' "$1"; }
scrape "$tmp/metrics.before"
for i in 1 2 3 4 5; do
  run_cql "INSERT INTO ks.t (k, v) VALUES ($((i + 10)), 'x'); SELECT v FROM ks.t WHERE k = $((i + 10))"
done
scrape "$tmp/metrics.after"
for series in 'cqld_native_requests_total{opcode="QUERY"}' \
  'cqld_client_request_latency_seconds_count{scope="Write"}' \
  'cqld_client_request_latency_seconds_count{scope="Read"}' \
  'cqld_table_write_latency_seconds_count{keyspace="ks",table="t"}' \
  'cqld_native_bytes_received_total' 'cqld_native_connections_accepted_total'; do
  before=$(metric "$tmp/metrics.before" "$series")
  after=$(metric "$tmp/metrics.after" "$series")
  python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) >= float(sys.argv[1]) + 5 else 1)" \
    "$before" "$after" || fail "/metrics: $series went from $before to $after over 5 writes and reads"
done
grep -q '^# TYPE cqld_storage_block_cache_hits_total counter$' "$tmp/metrics.after" ||
  fail "/metrics: no RocksDB figures"

# drain: flushes, stops CQL, keeps running until SIGTERM.
expect_admin 0 drain
expect_admin 0 info
grep -qx "Native Transport active: false" <<<"$out" || fail "info after drain: $out"
if "$cql" 127.0.0.1 "$port" -e "SELECT * FROM ks.t" >/dev/null 2>&1; then
  fail "CQL still served after drain"
fi
kill -0 "$pid" || fail "cqld exited after drain"
stop_cqld

# The PasswordAuthenticator: only a superuser may use the admin API.
CQLD_SUPERUSER_PASSWORD=s3cret start_cqld cqld-auth "$tmp/auth" --authenticator PasswordAuthenticator \
  --audit-log --audit-log-dir "$tmp/audit-auth" --audit-log-included-categories AUTH,DCL
cql_login=(-u cassandra -p s3cret)
run_cql "CREATE ROLE bob WITH PASSWORD = 'bobpw' AND LOGIN = true"
expect_admin 1 status
[ "$err" = "error: Credentials required (HTTP Basic)" ] || fail "no credentials: '$err'"
expect_admin 1 -u cassandra -pw wrong status
[[ "$err" == "error: Provided username cassandra and/or password are incorrect" ]] ||
  fail "wrong password: '$err'"
! grep -q "wrong" "$tmp/cqld-auth.err" || fail "a password was logged"
expect_admin 1 -u bob -pw bobpw status
[[ "$err" == "error: User bob is not a superuser"* ]] || fail "non-superuser: '$err'"
expect_admin 0 -u cassandra -pw s3cret version
CQLD_ADMIN_PASSWORD=s3cret expect_admin 0 -u cassandra snapshot -t authed
printf 'cassandra s3cret\n' >"$tmp/password"
expect_admin 0 -u cassandra -pwf "$tmp/password" listsnapshots
grep -q "^authed " <<<"$out" || fail "listsnapshots with -pwf: $out"
expect_admin 2 -u cassandra status
python3 - "$admin_port" <<'PY' || fail "/metrics needs no credentials"
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=10).read()
PY
expect_admin 1 -u bob -pw bobpw getauditlog
[[ "$err" == "error: User bob is not a superuser"* ]] || fail "getauditlog as bob: '$err'"
expect_admin 0 -u cassandra -pw s3cret getauditlog
grep -Eqx "enabled +true" <<<"$out" || fail "getauditlog with --audit-log: $out"
"$cql" 127.0.0.1 "$port" -u bob -p nottheone -e "SELECT * FROM system.local" >/dev/null 2>&1 &&
  fail "a wrong password logged in"
run_cql "LIST ROLES"
expect_admin 0 -u cassandra -pw s3cret disableauditlog
audit=$(cat "$tmp/audit-auth/audit.log")
grep -q "^user:cassandra|.*|type:LOGIN_SUCCESS|category:AUTH|operation:LOGIN SUCCESSFUL$" <<<"$audit" ||
  fail "audit log: no login: $audit"
grep -q "^user:null|.*|type:LOGIN_ERROR|category:AUTH|operation:LOGIN FAILURE; .*bob" <<<"$audit" ||
  fail "audit log: no failed login: $audit"
grep -q "|type:CREATE_ROLE|category:DCL|operation:CREATE ROLE bob WITH PASSWORD = '\*\*\*' AND LOGIN = true$" \
  <<<"$audit" || fail "audit log: no CREATE ROLE: $audit"
grep -q "|type:LIST_ROLES|category:DCL|" <<<"$audit" || fail "audit log: no LIST ROLES: $audit"
! grep -q "bobpw\|nottheone\|s3cret\|category:QUERY" <<<"$audit" || fail "audit log: leaked: $audit"
stop_cqld
echo "cqld_admin_test: ok"
