#!/usr/bin/env bash
# server.cqld_binary: the real `cqld` binary end to end.
#
#   tests/server/cqld_test.sh CQLD_BINARY
#
# Starts cqld with --port 0 on a fresh data directory, checks the ready line, talks the native
# protocol with a small python3 socket client (OPTIONS → SUPPORTED, STARTUP, CREATE KEYSPACE),
# stops it with SIGTERM (exit 0), starts it again on the same directory and checks that the
# keyspace is still there; also checks a usage error exits 2. Then TLS: certificates made with
# the `openssl` CLI, the ready line's `tls on`, the protocol over TLS (the CA and the name
# 127.0.0.1 verified), SIGHUP reloading a replaced certificate (and a broken one: cqld keeps
# the previous one), and the config file's client_encryption_options names (`tls optional`:
# plaintext and TLS on one port), and a cassandra.yaml-style config with the log settings (a
# JSON log file; system.local's cluster name and real port; batch_size_fail_threshold; unknown
# keys refused).
set -euo pipefail

cqld=$1
tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "cqld_test: $*" >&2
  [ -f "$tmp/err" ] && sed 's/^/  cqld stderr: /' "$tmp/err" >&2
  exit 1
}

# Starts cqld in the background; sets $pid and $port from its ready line.
start() {
  : >"$tmp/out"
  "$cqld" --data "$tmp/data" --port 0 --admin-port 0 "$@" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 1 200); do
    [ -s "$tmp/out" ] && break
    kill -0 "$pid" 2>/dev/null || fail "cqld exited before it was ready"
    sleep 0.05
  done
  line=$(head -n 1 "$tmp/out")
  [[ "$line" =~ ^cqld\ listening\ on\ 127\.0\.0\.1:([0-9]+)\ \(data\ $tmp/data,\ durability\ (periodic|batch),\ authenticator\ (AllowAllAuthenticator|PasswordAuthenticator),\ authorizer\ (AllowAllAuthorizer|CassandraAuthorizer),\ tls\ (on|optional|off),\ admin\ (127\.0\.0\.1:[1-9][0-9]*|off)\)$ ]] ||
    fail "unexpected ready line: '$line'"
  port=${BASH_REMATCH[1]}
  [ "$port" -gt 0 ] || fail "port 0 in the ready line"
}

stop() {
  kill -TERM "$pid"
  set +e
  wait "$pid"
  status=$?
  set -e
  pid=
  [ "$status" -eq 0 ] || fail "cqld exited $status after SIGTERM"
}

# client.py [--tls CA_FILE] PORT QUERY...: OPTIONS (checks SUPPORTED), STARTUP, then each
# QUERY; prints each RESULT body in hex, one per line. Exits 1 on an ERROR. With --tls it speaks
# TLS, verifies the server's certificate against CA_FILE and the name 127.0.0.1, and first
# prints `cn=NAME`, the certificate's common name.
cat >"$tmp/client.py" <<'PY'
import socket, ssl, struct, sys

def envelope(stream, opcode, body):
    return struct.pack(">BBhBi", 4, 0, stream, opcode, len(body)) + body

def string_map(pairs):
    out = struct.pack(">H", len(pairs))
    for k, v in pairs:
        for s in (k, v):
            b = s.encode()
            out += struct.pack(">H", len(b)) + b
    return out

def receive(sock):
    def exact(n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                sys.exit("connection closed")
            data += chunk
        return data
    version, flags, stream, opcode, length = struct.unpack(">BBhBi", exact(9))
    return version, stream, opcode, exact(length)

args = sys.argv[1:]
ca = None
if args[0] == "--tls":
    ca, args = args[1], args[2:]
sock = socket.create_connection(("127.0.0.1", int(args[0])), timeout=10)
if ca:
    context = ssl.create_default_context(cafile=ca)  # verifies the chain and the name
    sock = context.wrap_socket(sock, server_hostname="127.0.0.1")
    subject = dict(pair[0] for pair in sock.getpeercert()["subject"])
    print("cn=" + subject["commonName"])
sock.sendall(envelope(1, 0x05, b""))
version, stream, opcode, body = receive(sock)
assert (version, stream, opcode) == (0x84, 1, 0x06), (version, stream, opcode)
for key in (b"CQL_VERSION", b"COMPRESSION", b"PROTOCOL_VERSIONS", b"5/v5", b"lz4"):
    assert key in body, key
sock.sendall(envelope(2, 0x01, string_map([("CQL_VERSION", "3.4.6")])))
assert receive(sock)[2] == 0x02, "STARTUP not answered with READY"
for i, query in enumerate(args[1:]):
    q = query.encode()
    sock.sendall(envelope(10 + i, 0x07, struct.pack(">i", len(q)) + q + struct.pack(">HB", 1, 0)))
    version, stream, opcode, body = receive(sock)
    if opcode != 0x08:
        sys.exit("error for %r: %r" % (query, body))
    print(body.hex())
PY

# 1. Usage errors exit 2.
set +e
"$cqld" --no-such-flag >/dev/null 2>"$tmp/usage"
status=$?
set -e
[ "$status" -eq 2 ] || fail "a bad flag exited $status, not 2"
grep -q "usage: cqld" "$tmp/usage" || fail "no usage text for a bad flag"

# 2. First run: create a keyspace.
start
python3 "$tmp/client.py" "$port" \
  "CREATE KEYSPACE persisted WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}" \
  >/dev/null || fail "the protocol client failed on the first run"
stop

# The admin listener turned off (--admin-port -1; a later flag wins over start's --admin-port 0).
start --admin-port -1
[[ "$line" == *", tls off, admin off)" ]] || fail "admin not off in the ready line: '$line'"
stop

# 3. Second run (durability batch, settings from a config file): the keyspace is still there.
printf '# test config\ndurability: batch\nio-threads: 2\n' >"$tmp/cqld.conf"
start --config "$tmp/cqld.conf"
[[ "$line" == *"durability batch, authenticator AllowAllAuthenticator, authorizer AllowAllAuthorizer, tls off, admin 127.0.0.1:"*")" ]] || fail "config file not applied: '$line'"
out=$(python3 "$tmp/client.py" "$port" \
  "SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = 'persisted'") ||
  fail "the protocol client failed on the second run"
hex_name=$(printf 'persisted' | od -An -tx1 | tr -d ' \n')
[[ "$out" == *"00000009$hex_name"* ]] || fail "keyspace 'persisted' not found after restart: $out"
stop

# 4. TLS, with certificates from the openssl CLI. issue NAME CN: a certificate for 127.0.0.1
# named CN, signed by the test CA, in $tmp/NAME.pem with its key in $tmp/NAME.key.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
  -subj "/CN=cqld test CA" -keyout "$tmp/ca.key" -out "$tmp/ca.pem" 2>/dev/null ||
  fail "openssl could not make the test CA"
issue() {
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$2" \
    -keyout "$tmp/$1.key" -out "$tmp/$1.csr" 2>/dev/null || fail "openssl: no request for $1"
  printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$tmp/$1.ext"
  openssl x509 -req -in "$tmp/$1.csr" -CA "$tmp/ca.pem" -CAkey "$tmp/ca.key" -CAcreateserial \
    -days 2 -extfile "$tmp/$1.ext" -out "$tmp/$1.pem" 2>/dev/null || fail "openssl: $1 not signed"
}
# Waits (at most 5 s) for `text` in cqld's log.
wait_log() {
  for _ in $(seq 1 100); do
    grep -q "$1" "$tmp/err" && return 0
    sleep 0.05
  done
  fail "no '$1' in cqld's log"
}
query="SELECT release_version FROM system.local"

issue server cqld-first
start --tls-cert "$tmp/server.pem" --tls-key "$tmp/server.key"
[[ "$line" == *", tls on, admin 127.0.0.1:"*")" ]] || fail "TLS not in the ready line: '$line'"
out=$(python3 "$tmp/client.py" --tls "$tmp/ca.pem" "$port" "$query") || fail "the TLS client failed"
[[ "$out" == cn=cqld-first* ]] || fail "unexpected certificate: $out"
if python3 "$tmp/client.py" "$port" "$query" >/dev/null 2>&1; then
  fail "a plaintext client was served on a TLS port"
fi

# SIGHUP after the files were replaced: new connections get the new certificate.
issue next cqld-second
cp "$tmp/next.pem" "$tmp/server.pem"
cp "$tmp/next.key" "$tmp/server.key"
kill -HUP "$pid"
wait_log "TLS reloaded"
kill -0 "$pid" 2>/dev/null || fail "cqld died on SIGHUP"
out=$(python3 "$tmp/client.py" --tls "$tmp/ca.pem" "$port" "$query") ||
  fail "the TLS client failed after SIGHUP"
[[ "$out" == cn=cqld-second* ]] || fail "SIGHUP did not reload the certificate: $out"
# A broken key: the reload fails and is logged; cqld keeps the certificate it has.
echo "not a key" >"$tmp/server.key"
kill -HUP "$pid"
wait_log "TLS reload failed"
kill -0 "$pid" 2>/dev/null || fail "cqld died on a SIGHUP with a broken key"
out=$(python3 "$tmp/client.py" --tls "$tmp/ca.pem" "$port" "$query") ||
  fail "the TLS client failed after a failed reload"
[[ "$out" == cn=cqld-second* ]] || fail "a failed reload changed the certificate: $out"
stop

# Without TLS, SIGHUP is harmless too.
start
kill -HUP "$pid"
wait_log "TLS is off"
kill -0 "$pid" 2>/dev/null || fail "cqld died on SIGHUP without TLS"
python3 "$tmp/client.py" "$port" "$query" >/dev/null || fail "not served after SIGHUP"
stop

# 5. The config file's cassandra.yaml names; TLS optional serves both on one port.
cp "$tmp/next.key" "$tmp/server.key"
{
  echo "client_encryption_options.enabled: true"
  echo "client_encryption_options.optional: true"
  echo "client_encryption_options.certificate: $tmp/server.pem"
  echo "client_encryption_options.private_key: $tmp/server.key"
} >"$tmp/tls.conf"
start --config "$tmp/tls.conf"
[[ "$line" == *", tls optional, admin 127.0.0.1:"*")" ]] || fail "TLS optional not in the ready line: '$line'"
python3 "$tmp/client.py" --tls "$tmp/ca.pem" "$port" "$query" >/dev/null ||
  fail "the TLS client failed on an optional port"
python3 "$tmp/client.py" "$port" "$query" >/dev/null ||
  fail "the plaintext client failed on an optional port"
stop
printf 'client_encryption_options.enabled: false\nclient_encryption_options.certificate: x\n' \
  >"$tmp/off.conf"
start --config "$tmp/off.conf"
[[ "$line" == *", tls off, admin 127.0.0.1:"*")" ]] || fail "enabled: false did not turn TLS off: '$line'"
stop
set +e
"$cqld" --data "$tmp/data" --tls-cert "$tmp/server.pem" >/dev/null 2>"$tmp/usage"
status=$?
set -e
[ "$status" -eq 2 ] || fail "--tls-cert without --tls-key exited $status, not 2"

# 6. A cassandra.yaml-style config (nested maps, a list, 4.1 units) with cqld's log settings:
# system.local reports the cluster name and the real port; the log is JSON lines in its file.
{
  echo "cluster_name: 'Hotel Cluster'"
  echo "commitlog_sync: periodic"
  echo "native_transport_max_frame_size: 32MiB"
  echo "batch_size_fail_threshold: 1KiB"
  echo "client_encryption_options:"
  echo "  enabled: false"
  echo "log-file: $tmp/cqld.log"
  echo "log-format: json"
  echo "log-level: info"
} >"$tmp/cqld.yaml"
start --config "$tmp/cqld.yaml"
out=$(python3 "$tmp/client.py" "$port" "SELECT cluster_name, rpc_port FROM system.local") ||
  fail "system.local could not be read"
hex_cluster=$(printf 'Hotel Cluster' | od -An -tx1 | tr -d ' \n')
hex_port=$(printf '%08x' "$port")
[[ "$out" == *"0000000d${hex_cluster}00000004${hex_port}"* ]] ||
  fail "system.local does not report the cluster name and port $port: $out"
# batch_size_fail_threshold: a two-partition batch of 2 x 600 bytes passes 1 KiB and is refused.
python3 "$tmp/client.py" "$port" \
  "CREATE TABLE IF NOT EXISTS persisted.b (k int PRIMARY KEY, v text)" >/dev/null ||
  fail "CREATE TABLE failed"
big=$(printf 'x%.0s' $(seq 1 600))
batch="BEGIN BATCH INSERT INTO persisted.b (k, v) VALUES (1, '$big'); INSERT INTO persisted.b (k, v) VALUES (2, '$big'); APPLY BATCH"
refused=$(python3 "$tmp/client.py" "$port" "$batch" 2>&1) &&
  fail "a 1.2 KiB batch passed batch_size_fail_threshold: 1KiB"
[[ "$refused" == *"Batch too large"* ]] || fail "the large batch failed otherwise: $refused"
python3 "$tmp/client.py" "$port" "${batch//$big/small}" >/dev/null || fail "a small batch failed"
stop
grep -q '"level":"INFO","source":"' "$tmp/cqld.log" || fail "no JSON lines in the log file"
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$tmp/cqld.log" ||
  fail "the log file holds a line that is not JSON"
# Unknown keys are usage errors naming the key and its line.
printf 'cluster_name: x\nnum_tokens: 16\n' >"$tmp/bad.yaml"
set +e
"$cqld" --data "$tmp/data" --config "$tmp/bad.yaml" >/dev/null 2>"$tmp/usage"
status=$?
set -e
[ "$status" -eq 2 ] || fail "an unknown config key exited $status, not 2"
grep -q "bad.yaml:2: unknown key 'num_tokens'" "$tmp/usage" || fail "the unknown key is not named"
echo "cqld_test: ok"
