#!/usr/bin/env bash
# server.cqld_binary: the real `cqld` binary end to end.
#
#   tests/server/cqld_test.sh CQLD_BINARY
#
# Starts cqld with --port 0 on a fresh data directory, checks the ready line, talks the native
# protocol with a small python3 socket client (OPTIONS → SUPPORTED, STARTUP, CREATE KEYSPACE),
# stops it with SIGTERM (exit 0), starts it again on the same directory and checks that the
# keyspace is still there; also checks a usage error exits 2.
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
  "$cqld" --data "$tmp/data" --port 0 "$@" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 1 200); do
    [ -s "$tmp/out" ] && break
    kill -0 "$pid" 2>/dev/null || fail "cqld exited before it was ready"
    sleep 0.05
  done
  line=$(head -n 1 "$tmp/out")
  [[ "$line" =~ ^cqld\ listening\ on\ 127\.0\.0\.1:([0-9]+)\ \(data\ $tmp/data,\ durability\ (periodic|batch),\ authenticator\ (AllowAllAuthenticator|PasswordAuthenticator),\ authorizer\ (AllowAllAuthorizer|CassandraAuthorizer)\)$ ]] ||
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

# client.py PORT QUERY...: OPTIONS (checks SUPPORTED), STARTUP, then each QUERY; prints each
# RESULT body in hex, one per line. Exits 1 on an ERROR.
cat >"$tmp/client.py" <<'PY'
import socket, struct, sys

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

sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
sock.sendall(envelope(1, 0x05, b""))
version, stream, opcode, body = receive(sock)
assert (version, stream, opcode) == (0x84, 1, 0x06), (version, stream, opcode)
for key in (b"CQL_VERSION", b"COMPRESSION", b"PROTOCOL_VERSIONS", b"5/v5", b"lz4"):
    assert key in body, key
sock.sendall(envelope(2, 0x01, string_map([("CQL_VERSION", "3.4.6")])))
assert receive(sock)[2] == 0x02, "STARTUP not answered with READY"
for i, query in enumerate(sys.argv[2:]):
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

# 3. Second run (durability batch, settings from a config file): the keyspace is still there.
printf '# test config\ndurability: batch\nio-threads: 2\n' >"$tmp/cqld.conf"
start --config "$tmp/cqld.conf"
[[ "$line" == *"durability batch, authenticator AllowAllAuthenticator, authorizer AllowAllAuthorizer)" ]] || fail "config file not applied: '$line'"
out=$(python3 "$tmp/client.py" "$port" \
  "SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = 'persisted'") ||
  fail "the protocol client failed on the second run"
hex_name=$(printf 'persisted' | od -An -tx1 | tr -d ' \n')
[[ "$out" == *"00000009$hex_name"* ]] || fail "keyspace 'persisted' not found after restart: $out"
stop
echo "cqld_test: ok"
