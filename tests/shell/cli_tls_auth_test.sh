#!/usr/bin/env bash
# shell.cli_tls_auth: `cql` (and so the C++ driver) with TLS, logins, passwords and a read-only
# role, end to end.
#
#   tests/shell/cli_tls_auth_test.sh CQL_BINARY REPOSITORY_ROOT [CQLD_BINARY]
#
# Setup: certificates made now with the `openssl` CLI in a temporary directory (a test CA, a
# second CA nobody trusts, a server certificate for IP:127.0.0.1 signed by the CA, one for
# another name, a client certificate); a plaintext cqld with PasswordAuthenticator and
# CassandraAuthorizer on 127.0.0.1 port 0; and in front of it three TLS-terminating proxies
# (tests/shell/tls_proxy.py: TLS in front, the plaintext cqld behind), one that requires a
# client certificate and one whose certificate names another host. Everything listens on
# 127.0.0.1 and is stopped on exit.
# Checks:
#   1. --ssl --ssl-ca runs statements over TLS; a CA that did not sign the server's
#      certificate, a certificate for another name, TLS to a plaintext port and plaintext to a
#      TLS port fail cleanly (status 1, the reason in the message); SSL_VALIDATE=false skips
#      the checks; a CA file that cannot be read is reported before connecting;
#   2. mutual TLS: --ssl-cert/--ssl-key, refused without them; a certificate without its key is
#      a usage error;
#   3. -u/-p, a wrong password (Bad credentials, the password in no message), CQL_PASSWORD, no
#      password and no terminal ("password required");
#   4. ~/.cql/cqlrc (cqlsh's sections; HOME is a temporary directory): credentials, host, port
#      and TLS from the file, the command line winning over the file, the warning for a file
#      others may read, --cqlrc FILE;
#   5. a role granted only SELECT ON KEYSPACE ks: DESCRIBE KEYSPACE/TABLE/SCHEMA and COPY TO work,
#      writes are refused;
#   6. at a pseudo-terminal (pty_login_test.py): the password prompt without echo, LOGIN, and a
#      history file without passwords;
#   7. the same client against a cqld serving TLS itself with --tls-require-client-cert:
#      served with a client certificate and a login, refused without the certificate.
# Skips (77) only when the `openssl` CLI is missing.
set -euo pipefail

cql=$1
root=$2
cqld=${3:-$(dirname "$cql")/cqld}
# Debian's interpreter, as the driver tests use (standard library only).
python=/usr/bin/python3
[ -x "$python" ] || python=python3
command -v openssl >/dev/null || { echo "cli_tls_auth_test: no openssl CLI; skipping"; exit 77; }
[ -x "$cqld" ] || { echo "cli_tls_auth_test: no cqld binary at $cqld" >&2; exit 1; }

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

super_password='Sup3r-secret'
ro_password='r0-secret'
label=setup
fail() {
  echo "cli_tls_auth_test [$label]: $*" >&2
  exit 1
}

# Runs cql with the given arguments (HOME and the environment as the caller set them): output
# in $tmp/out and $tmp/err, exit status in $status.
run() {
  set +e
  "$cql" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  status=$?
  set -e
}
expect_ok() {
  [ "$status" -eq 0 ] || fail "exited $status: $(cat "$tmp/out" "$tmp/err")"
}
# No output may hold a password.
no_secrets() {
  for secret in "$super_password" "$ro_password" wrong-Passw0rd; do
    ! grep -qF -- "$secret" "$tmp/out" "$tmp/err" || fail "a password was printed: $(cat "$tmp/err")"
  done
}

# --- Certificates --------------------------------------------------------------------------
certs=$tmp/certs
mkdir -p "$certs"
cat >"$certs/openssl.cnf" <<'CNF'
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca_ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server_ext]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1
[other_name_ext]
basicConstraints = CA:FALSE
extendedKeyUsage = serverAuth
subjectAltName = DNS:db.example.com
[client_ext]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
CNF
openssl_quiet() { openssl "$@" 2>>"$certs/openssl.log" || fail "openssl $1: $(cat "$certs/openssl.log")"; }
new_ca() {  # NAME
  openssl_quiet req -x509 -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -keyout "$certs/$1.key" -out "$certs/$1.pem" -days 2 -subj "/CN=cql test $1" \
    -config "$certs/openssl.cnf" -extensions ca_ext
}
new_cert() {  # NAME EXTENSIONS
  openssl_quiet req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
    -keyout "$certs/$1.key" -out "$certs/$1.csr" -subj "/CN=cql test $1" -config "$certs/openssl.cnf"
  openssl_quiet x509 -req -in "$certs/$1.csr" -CA "$certs/ca.pem" -CAkey "$certs/ca.key" \
    -CAcreateserial -out "$certs/$1.pem" -days 2 -extfile "$certs/openssl.cnf" -extensions "$2"
}
new_ca ca
new_ca other_ca
new_cert server server_ext
new_cert other_name other_name_ext
new_cert client client_ext
ca=$certs/ca.pem

# --- Servers -------------------------------------------------------------------------------
# Waits for the line `NAME listening on 127.0.0.1:PORT` in FILE from process PID; prints PORT.
wait_port() {  # NAME FILE PID
  local port=""
  for _ in $(seq 1 300); do
    port=$(sed -nE "s/^$1 listening on 127\.0\.0\.1:([0-9]+).*/\1/p" "$2")
    [ -n "$port" ] && break
    kill -0 "$3" 2>/dev/null || fail "$1 exited before it was ready: $(cat "$2" "$2.err")"
    sleep 0.05
  done
  [ -n "$port" ] || fail "$1 did not start: $(cat "$2" "$2.err")"
  echo "$port"
}
CQLD_SUPERUSER_PASSWORD=$super_password "$cqld" --data "$tmp/data" --address 127.0.0.1 --port 0 --admin-port 0 \
  --authenticator PasswordAuthenticator --authorizer CassandraAuthorizer \
  >"$tmp/cqld.out" 2>"$tmp/cqld.out.err" &
pids+=($!)
cqld_port=$(wait_port cqld "$tmp/cqld.out" "$!")

# Starts a proxy in front of cqld; sets $proxy_port.
start_proxy() {  # NAME CERT [--client-ca CA]
  local name=$1 cert=$2
  shift 2
  "$python" "$root/tests/shell/tls_proxy.py" --cert "$certs/$cert.pem" --key "$certs/$cert.key" \
    --backend "127.0.0.1:$cqld_port" "$@" >"$tmp/$name.out" 2>"$tmp/$name.out.err" &
  pids+=($!)
  proxy_port=$(wait_port tls_proxy "$tmp/$name.out" "$!")
}
start_proxy tls server
tls_port=$proxy_port
start_proxy mtls server --client-ca "$ca"
mtls_port=$proxy_port
start_proxy other other_name
other_port=$proxy_port

export HOME=$tmp/home
mkdir -p "$HOME"
unset CQL_PASSWORD SSL_CERTFILE SSL_VALIDATE
superuser=(-u cassandra -p "$super_password")

# --- 1. TLS with server verification ---------------------------------------------------------
label=tls
run --ssl --ssl-ca "$ca" 127.0.0.1 "$tls_port" "${superuser[@]}" -e "
  CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
  CREATE TABLE ks.t (k int PRIMARY KEY, v text);
  INSERT INTO ks.t (k, v) VALUES (1, 'one');
  CREATE ROLE ro WITH PASSWORD = '$ro_password' AND LOGIN = true;
  GRANT SELECT ON KEYSPACE ks TO ro;
  SELECT k, v FROM ks.t"
expect_ok
grep -qx ' 1 | one' "$tmp/out" || fail "unexpected rows: $(cat "$tmp/out")"

run --ssl --ssl-ca "$certs/other_ca.pem" 127.0.0.1 "$tls_port" "${superuser[@]}" -e "SELECT * FROM ks.t"
[ "$status" -eq 1 ] || fail "an untrusted server certificate exited $status, not 1"
grep -qF "SSLError(\"TLS handshake with 127.0.0.1:$tls_port failed: certificate verify failed (" "$tmp/err" ||
  fail "unexpected error for an untrusted certificate: $(cat "$tmp/err")"
no_secrets

run --ssl --ssl-ca "$ca" 127.0.0.1 "$other_port" "${superuser[@]}" -e "SELECT * FROM ks.t"
[ "$status" -eq 1 ] && grep -qF "certificate verify failed (IP address mismatch)" "$tmp/err" ||
  fail "a certificate for another name: status $status: $(cat "$tmp/err")"
# cqlsh's SSL_VALIDATE=false: encrypted, not verified.
SSL_VALIDATE=false run --ssl --ssl-ca "$certs/other_ca.pem" 127.0.0.1 "$other_port" "${superuser[@]}" \
  -e "SELECT v FROM ks.t"
expect_ok
SSL_VALIDATE=maybe run --ssl 127.0.0.1 "$tls_port" -e "SELECT v FROM ks.t"
[ "$status" -eq 2 ] && grep -qF "SSL_VALIDATE must be true or false, not 'maybe'" "$tmp/err" ||
  fail "a bad SSL_VALIDATE: status $status: $(cat "$tmp/err")"
# SSL_CERTFILE names the CA, as in cqlsh.
SSL_CERTFILE=$ca run --ssl 127.0.0.1 "$tls_port" "${superuser[@]}" -e "SELECT v FROM ks.t"
expect_ok

run --ssl --ssl-ca "$ca" 127.0.0.1 "$cqld_port" --connect-timeout 5 "${superuser[@]}" -e "SELECT * FROM ks.t"
[ "$status" -eq 1 ] && grep -qF "TLS handshake with 127.0.0.1:$cqld_port failed: " "$tmp/err" ||
  fail "TLS to a plaintext port: status $status: $(cat "$tmp/err")"
run 127.0.0.1 "$tls_port" --connect-timeout 5 "${superuser[@]}" -e "SELECT * FROM ks.t"
[ "$status" -eq 1 ] && grep -q "^Connection error: " "$tmp/err" ||
  fail "plaintext to a TLS port: status $status: $(cat "$tmp/err")"
no_secrets

run --ssl --ssl-ca "$tmp/missing.pem" 127.0.0.1 "$tls_port" "${superuser[@]}" -e "SELECT * FROM ks.t"
[ "$status" -eq 1 ] &&
  [ "$(cat "$tmp/err")" = "cql: Cannot read the TLS CA file '$tmp/missing.pem': No such file or directory" ] ||
  fail "a missing CA file: status $status: $(cat "$tmp/err")"
run --ssl-ca "$ca" 127.0.0.1 "$tls_port" -e "SELECT * FROM ks.t"
[ "$status" -eq 2 ] && grep -qF -- "--ssl-ca, --ssl-cert and --ssl-key need --ssl" "$tmp/err" ||
  fail "--ssl-ca without --ssl: status $status: $(cat "$tmp/err")"

# --- 2. Mutual TLS ---------------------------------------------------------------------------
label=mtls
run --ssl --ssl-ca "$ca" 127.0.0.1 "$mtls_port" "${superuser[@]}" -e "SELECT v FROM ks.t"
[ "$status" -eq 1 ] && grep -qF "TLS handshake with 127.0.0.1:$mtls_port failed: " "$tmp/err" &&
  grep -qF "certificate required" "$tmp/err" ||
  fail "no client certificate: status $status: $(cat "$tmp/err")"
run --ssl --ssl-ca "$ca" --ssl-cert "$certs/client.pem" --ssl-key "$certs/client.key" \
  127.0.0.1 "$mtls_port" "${superuser[@]}" -e "SELECT v FROM ks.t"
expect_ok
grep -qx ' one' "$tmp/out" || fail "unexpected rows: $(cat "$tmp/out")"
run --ssl --ssl-ca "$ca" --ssl-cert "$certs/client.pem" 127.0.0.1 "$mtls_port" -e "SELECT v FROM ks.t"
[ "$status" -eq 2 ] && grep -qF "A client certificate needs its private key" "$tmp/err" ||
  fail "a certificate without its key: status $status: $(cat "$tmp/err")"
run --ssl --ssl-ca "$ca" --ssl-cert "$certs/client.pem" --ssl-key "$certs/server.key" \
  127.0.0.1 "$mtls_port" -e "SELECT v FROM ks.t"
[ "$status" -eq 1 ] && grep -qF "does not match the certificate" "$tmp/err" ||
  fail "a key of another certificate: status $status: $(cat "$tmp/err")"

# --- 3. Passwords ----------------------------------------------------------------------------
label=passwords
tls=(--ssl --ssl-ca "$ca" 127.0.0.1 "$tls_port")
run "${tls[@]}" -u ro -p wrong-Passw0rd -e "SELECT v FROM ks.t"
[ "$status" -eq 1 ] && grep -qF "[Bad credentials] message=\"Provided username ro and/or password are incorrect\"" "$tmp/err" ||
  fail "a wrong password: status $status: $(cat "$tmp/err")"
no_secrets
CQL_PASSWORD=$ro_password run "${tls[@]}" -u ro -e "SELECT v FROM ks.t"
expect_ok
# -p wins over CQL_PASSWORD.
CQL_PASSWORD=wrong-Passw0rd run "${tls[@]}" -u ro -p "$ro_password" -e "SELECT v FROM ks.t"
expect_ok
# No password and no terminal to ask on (setsid: no controlling terminal).
set +e
setsid -w "$cql" "${tls[@]}" -u ro -e "SELECT v FROM ks.t" </dev/null >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
[ "$status" -eq 2 ] && grep -qF "password required" "$tmp/err" ||
  fail "no password and no terminal: status $status: $(cat "$tmp/err")"

# --- 4. The cqlrc file -----------------------------------------------------------------------
label=cqlrc
mkdir -p "$HOME/.cql"
cat >"$HOME/.cql/cqlrc" <<RC
; cqlsh's cqlshrc sections and keys
[authentication]
username = ro
password = $ro_password

[connection]
hostname = 127.0.0.1
port = $mtls_port
ssl = true

[ssl]
certfile = $ca
usercert = $certs/client.pem
userkey = $certs/client.key
validate = true

[ui]
color = on
RC
chmod 600 "$HOME/.cql/cqlrc"
run -e "SELECT v FROM ks.t"
expect_ok
grep -qx ' one' "$tmp/out" || fail "unexpected rows: $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "unexpected warnings for a private cqlrc: $(cat "$tmp/err")"
chmod 644 "$HOME/.cql/cqlrc"
run -e "SELECT v FROM ks.t"
expect_ok
grep -qF "Warning: '$HOME/.cql/cqlrc' holds a password and other users may read it" "$tmp/err" ||
  fail "no warning for a cqlrc others may read: $(cat "$tmp/err")"
no_secrets
chmod 600 "$HOME/.cql/cqlrc"
# The command line wins: another port (the proxy without client certificates), another user
# (whose password is not the file's).
run 127.0.0.1 "$tls_port" -e "SELECT v FROM ks.t"
expect_ok
CQL_PASSWORD=$super_password run -u cassandra -e "LIST ROLES"
expect_ok
grep -q "^ *cassandra " "$tmp/out" || fail "LIST ROLES as cassandra: $(cat "$tmp/out")"
set +e
setsid -w "$cql" -u cassandra -e "SELECT v FROM ks.t" </dev/null >"$tmp/out" 2>"$tmp/err"
status=$?
set -e
[ "$status" -eq 2 ] && grep -qF "password required" "$tmp/err" ||
  fail "the file's password was used for another user: status $status: $(cat "$tmp/err")"
# --cqlrc names another file; a bad one is reported with its line.
printf '[connection]\nport = 0\n' >"$tmp/bad_cqlrc"
run --cqlrc "$tmp/bad_cqlrc" -e "SELECT v FROM ks.t"
[ "$status" -eq 2 ] && grep -qF "cql: $tmp/bad_cqlrc:2: [connection] port must be a number in 1..65535, not '0'" "$tmp/err" ||
  fail "a bad cqlrc: status $status: $(cat "$tmp/err")"
run --cqlrc "$tmp/missing_cqlrc" -e "SELECT v FROM ks.t"
[ "$status" -eq 1 ] && grep -qF "Cannot read the cqlrc file '$tmp/missing_cqlrc'" "$tmp/err" ||
  fail "a missing --cqlrc: status $status: $(cat "$tmp/err")"
rm "$HOME/.cql/cqlrc"

# --- 5. A role that may only read --------------------------------------------------------------
label=read-only
ro=("${tls[@]}" -u ro -p "$ro_password")
run "${ro[@]}" -e "DESCRIBE KEYSPACE ks"
expect_ok
grep -q "^CREATE KEYSPACE ks WITH replication" "$tmp/out" && grep -q "^CREATE TABLE ks.t (" "$tmp/out" ||
  fail "DESCRIBE KEYSPACE: $(cat "$tmp/out")"
run "${ro[@]}" -e "DESCRIBE TABLE ks.t"
expect_ok
grep -q "^CREATE TABLE ks.t (" "$tmp/out" || fail "DESCRIBE TABLE: $(cat "$tmp/out")"
run "${ro[@]}" -k ks -e "DESCRIBE SCHEMA"
expect_ok
grep -q "^CREATE TABLE ks.t (" "$tmp/out" || fail "DESCRIBE SCHEMA: $(cat "$tmp/out")"
run "${ro[@]}" -e "COPY ks.t TO '$tmp/t.csv' WITH HEADER = true"
expect_ok
[ "$(cat "$tmp/t.csv")" = "$(printf 'k,v\n1,one')" ] || fail "COPY TO wrote: $(cat "$tmp/t.csv")"
run "${ro[@]}" -e "INSERT INTO ks.t (k, v) VALUES (2, 'two')"
[ "$status" -eq 2 ] && grep -qF "User ro has no MODIFY permission on <table ks.t>" "$tmp/err" ||
  fail "a write by the read-only role: status $status: $(cat "$tmp/err")"
run "${ro[@]}" -e "COPY ks.t FROM '$tmp/t.csv' WITH HEADER = true AND ERRFILE = '$tmp/t.err'"
[ "$status" -eq 2 ] && grep -qF "Failed to import 1 rows: Unauthorized - User ro has no MODIFY permission" "$tmp/err" ||
  fail "COPY FROM by the read-only role: status $status: $(cat "$tmp/err")"

# --- 6. At a terminal --------------------------------------------------------------------------
label=pty
"$python" "$root/tests/shell/pty_login_test.py" "$cql" "$ro_password" "$super_password" "${tls[@]}" ||
  fail "pty_login_test.py failed"

# --- 7. cqld's own TLS ----------------------------------------------------------------------------
# The same client against a cqld serving TLS itself (no proxy), mutual TLS and logins on.
label=cqld_tls
CQLD_SUPERUSER_PASSWORD=$super_password "$cqld" --data "$tmp/data_tls" --address 127.0.0.1 \
  --port 0 --admin-port 0 --authenticator PasswordAuthenticator --authorizer CassandraAuthorizer \
  --tls-cert "$certs/server.pem" --tls-key "$certs/server.key" --tls-ca "$ca" \
  --tls-require-client-cert >"$tmp/cqld_tls.out" 2>"$tmp/cqld_tls.out.err" &
pids+=($!)
native_port=$(wait_port cqld "$tmp/cqld_tls.out" "$!")
grep -q "tls on" "$tmp/cqld_tls.out" || fail "the ready line: $(cat "$tmp/cqld_tls.out")"
run --ssl --ssl-ca "$ca" --ssl-cert "$certs/client.pem" --ssl-key "$certs/client.key" \
  127.0.0.1 "$native_port" "${superuser[@]}" -e "SELECT role FROM system_auth.roles"
expect_ok
grep -q "cassandra" "$tmp/out" || fail "system_auth.roles over native TLS: $(cat "$tmp/out")"
run --ssl --ssl-ca "$ca" 127.0.0.1 "$native_port" "${superuser[@]}" -e "SELECT * FROM system.local"
[ "$status" -eq 1 ] || fail "no client certificate on cqld's mutual TLS exited $status, not 1"
no_secrets

echo "cli_tls_auth_test: ok"
