#!/usr/bin/env bash
# The `hotel` binary's security features end to end (CTest hotel.cli; docs/security.md, "The
# hotel service"):
#   1. `hotel users add|passwd|remove|list` with the password from HOTEL_USER_PASSWORD; no
#      password without it and without a terminal; a password is never accepted as an argument.
#   2. `hotel serve --tls-cert --tls-key` with a self-signed certificate made by `openssl`: HTTPS
#      answers with `curl --cacert`, the session cookie is Secure, TLS 1.1 and plain HTTP are
#      refused; the password is in no output or log of the service; SIGTERM stops it.
#   3. With CQLD_BINARY: `--cassandra` against a cqld that asks for a login
#      (--authenticator PasswordAuthenticator): refused without credentials, served with
#      --username and HOTEL_CASSANDRA_PASSWORD; --password works with a warning, is blanked in
#      `ps`, and a wrong one is refused.
#   4. With CQLD_BINARY: `--cassandra` against a cqld with TLS (--tls-cert, the certificate of
#      part 2): refused in plaintext, served with --tls-ca verifying it, refused with another CA.
#   5. Operations (docs/operations.md, "The hotel service"): started from another working
#      directory without --web, it serves its compiled-in UI; /health/live, /health/ready and
#      /metrics answer; X-Request-Id is echoed; --access-log FILE gets one line per request
#      without query strings or tokens; --no-access-log writes none.
# Everything lives in a temporary directory; the servers listen on 127.0.0.1 on free ports and
# are stopped (by their pids) even when a check fails.
#
# Usage: apps/hotel/cli_test.sh HOTEL_BINARY [CQLD_BINARY]
# Exits 77 (skipped) when openssl, curl or setsid is missing.
set -uo pipefail

hotel=${1:?usage: cli_test.sh HOTEL_BINARY [CQLD_BINARY]}
cqld=${2:-}
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../../tests/support/checks.sh"
require_tools "hotel cli" openssl curl setsid
hotel=$(realpath "$hotel")  # part 5 runs it from another directory

work=$(mktemp -d)
pid=""
cqld_pid=""
tls_pid=""
stop() {
  end "$pid"
  end "$cqld_pid"
  end "$tls_pid"
  rm -rf "$work"
}
trap stop EXIT

data=$work/data
password="cli-test-$(head -c 9 /dev/urandom | base64 | tr '+/' '-_')"

# --- 1. hotel users ---------------------------------------------------------------------------
HOTEL_USER_PASSWORD=$password "$hotel" users add Clerk --data "$data" >"$work/add.out" 2>&1
check "users add (password from HOTEL_USER_PASSWORD)" grep -q "added clerk" "$work/add.out"
HOTEL_USER_PASSWORD=$password "$hotel" users add clerk --data "$data" >"$work/again.out" 2>&1
check "users add refuses a taken name" grep -q "already exists" "$work/again.out"
HOTEL_USER_PASSWORD=short "$hotel" users add other --data "$data" >"$work/short.out" 2>&1
check "users add refuses a short password" grep -q "at least 8 characters" "$work/short.out"
setsid -w "$hotel" users add other --data "$data" </dev/null >"$work/none.out" 2>&1
check "no password without HOTEL_USER_PASSWORD or a terminal" \
  grep -q "set HOTEL_USER_PASSWORD or run at a terminal" "$work/none.out"
"$hotel" users add other "$password" --data "$data" >"$work/argument.out" 2>&1
check "a password argument is a usage error" test $? -eq 2
check "and is not echoed" bash -c "! grep -q -- '$password' '$work/argument.out'"
HOTEL_USER_PASSWORD=second-password "$hotel" users add temp --data "$data" >/dev/null 2>&1
HOTEL_USER_PASSWORD=third-password "$hotel" users passwd temp --data "$data" >"$work/passwd.out" 2>&1
check "users passwd" grep -q "changed the password of temp" "$work/passwd.out"
"$hotel" users remove temp --data "$data" >"$work/remove.out" 2>&1
check "users remove" grep -q "removed temp" "$work/remove.out"
"$hotel" users list --data "$data" >"$work/list.out" 2>&1
check "users list" test "$(cat "$work/list.out")" = "clerk"
"$hotel" bench --data "$data" --service-threads -1 >"$work/gate.out" 2>&1
check "bench refuses a negative --service-threads" grep -q "bad --service-threads" "$work/gate.out"

# --- 2. HTTPS -----------------------------------------------------------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$work/key.pem" -out "$work/cert.pem" >/dev/null 2>&1 || {
  echo "hotel cli: openssl could not make a certificate" >&2
  exit 1
}
"$hotel" serve --data "$data" --address 127.0.0.1 --port 0 --web "$work/no-web" \
  --hotels 2 --days 8 --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" \
  >"$work/serve.out" 2>"$work/serve.err" &
pid=$!
url=$(started 'https://127\.0\.0\.1:[0-9]+' "$work/serve.out" "$work/serve.err" "$pid" \
  "hotel cli: hotel serve --tls-cert") || exit 1
echo "hotel cli: serving $url"

health=$(curl -sS --cacert "$work/cert.pem" "$url/api/v1/health")
check "HTTPS with the certificate" grep -q '"status":"ok"' <<<"$health"
login_status=$(curl -sS --cacert "$work/cert.pem" -o "$work/login.json" -D "$work/login.headers" \
  -w '%{http_code}' -H 'Content-Type: application/json' \
  --data-binary @- "$url/api/v1/login" <<<"{\"username\": \"clerk\", \"password\": \"$password\"}")
check "login over HTTPS" test "$login_status" = 200
check "the session cookie is Secure, HttpOnly and SameSite=Strict" \
  grep -qiE '^set-cookie: hotel_session=[0-9a-f]{64}; Path=/; Max-Age=[0-9]+; HttpOnly; SameSite=Strict; Secure' \
  "$work/login.headers"
token=$(grep -o '"token":"[0-9a-f]*"' "$work/login.json" | cut -d'"' -f4)
session=$(curl -sS --cacert "$work/cert.pem" -H "Authorization: Bearer $token" "$url/api/v1/session")
check "the bearer token works" grep -q '"username":"clerk"' <<<"$session"
check "an unknown certificate is refused by curl" \
  bash -c "! curl -sS -o /dev/null '$url/api/v1/health' 2>/dev/null"
check "TLS 1.1 is refused" bash -c \
  "! curl -sS -o /dev/null --cacert '$work/cert.pem' --tlsv1.1 --tls-max 1.1 '$url/api/v1/health' 2>/dev/null"
check "plain HTTP on the HTTPS port gets no answer" \
  bash -c "! curl -sS -o /dev/null --max-time 20 'http://${url#https://}/api/v1/health' 2>/dev/null"
check "the service is still up" \
  bash -c "curl -sS --cacert '$work/cert.pem' '$url/api/v1/health' | grep -q ok"

kill -TERM "$pid"
status=0
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  status=1
else
  wait "$pid" || status=$?
fi
pid=""
check "SIGTERM stops the service cleanly" test "$status" -eq 0
check "the password is in no output or log" \
  bash -c "! grep -rq -- '$password' '$work/serve.out' '$work/serve.err' '$work'/*.out"
check "no token in the logs" bash -c "! grep -q -- '$token' '$work/serve.err'"

# --- 5. Operations: the UI from any directory, health, metrics, the access log --------------------
mkdir -p "$work/elsewhere"
(cd "$work/elsewhere" && exec "$hotel" serve --data "$data" --address 127.0.0.1 --port 0 \
  --access-log "$work/access.log" >"$work/ops.out" 2>"$work/ops.err") &
pid=$!
url=$(started 'http://127\.0\.0\.1:[0-9]+' "$work/ops.out" "$work/ops.err" "$pid" \
  "hotel cli: hotel serve from another directory") || exit 1
check "the UI from another working directory" \
  bash -c "curl -sS '$url/' | grep -q '<title>'"
check "/health/live" bash -c "curl -sS '$url/health/live' | grep -q '\"status\":\"live\"'"
check "/health/ready" bash -c "curl -sS '$url/health/ready' | grep -q '\"status\":\"ok\"'"
check "an X-Request-Id is echoed" bash -c \
  "curl -sS -D - -o /dev/null -H 'X-Request-Id: cli-42' '$url/api/v1/pois' | grep -qi '^x-request-id: cli-42'"
curl -sS -o /dev/null "$url/api/v1/reservations/NOPE12?last_name=Secretname"
check "/metrics from 127.0.0.1, by route template" bash -c \
  "curl -sS '$url/metrics' | grep -q 'hotel_http_requests_total{route=\"/api/v1/reservations/{confirmation_number}\"'"
end "$pid"
pid=""
check "the access log names the request id and the route" \
  grep -q 'access id=cli-42 client=127.0.0.1 method=GET route=/api/v1/pois path=/api/v1/pois status=200' \
  "$work/access.log"
check "the access log holds no query string" bash -c "! grep -q Secretname '$work/access.log'"
check "nothing of it on stderr" bash -c "! grep -q ' access id=' '$work/ops.err'"
(cd "$work/elsewhere" && exec "$hotel" serve --data "$data" --address 127.0.0.1 --port 0 \
  --no-access-log >"$work/quiet.out" 2>"$work/quiet.err") &
pid=$!
url=$(wait_for 'http://127\.0\.0\.1:[0-9]+' "$work/quiet.out" "$pid")
curl -sS -o /dev/null "$url/health/live"
end "$pid"
pid=""
check "--no-access-log writes no access line" bash -c "! grep -q ' access id=' '$work/quiet.err'"

# --- 3. A cluster that asks for a login -----------------------------------------------------------
if [ -n "$cqld" ]; then
  super="super-$(head -c 9 /dev/urandom | base64 | tr '+/' '-_')"
  CQLD_SUPERUSER_PASSWORD=$super "$cqld" --data "$work/cqld" --address 127.0.0.1 --port 0 --admin-port 0 \
    --authenticator PasswordAuthenticator >"$work/cqld.out" 2>"$work/cqld.err" &
  cqld_pid=$!
  port=$(wait_for '127\.0\.0\.1:[0-9]+' "$work/cqld.out" "$cqld_pid" | cut -d: -f2)
  if [ -z "$port" ]; then
    echo "hotel cli: cqld did not start:" >&2
    cat "$work/cqld.out" "$work/cqld.err" >&2
    exit 1
  fi
  cluster=(--cassandra "127.0.0.1:$port")
  "$hotel" users list "${cluster[@]}" >"$work/anonymous.out" 2>&1
  check "a cluster that asks for a login refuses no credentials" \
    grep -q "requires authentication" "$work/anonymous.out"
  HOTEL_CASSANDRA_PASSWORD=$super HOTEL_USER_PASSWORD=$password \
    "$hotel" users add clerk "${cluster[@]}" --username cassandra >"$work/cluster-add.out" 2>&1
  check "--username with HOTEL_CASSANDRA_PASSWORD" grep -q "added clerk" "$work/cluster-add.out"
  "$hotel" users list "${cluster[@]}" --username cassandra >"$work/half.out" 2>&1
  check "--username without a password is refused" grep -q "needs a password" "$work/half.out"
  "$hotel" users list "${cluster[@]}" --username cassandra --password "wrong-$super" \
    >"$work/wrong.out" 2>&1
  check "a wrong password is refused" grep -q "incorrect" "$work/wrong.out"
  # --password works, warns, and is blanked in the process's arguments once read.
  "$hotel" serve "${cluster[@]}" --username cassandra --password "$super" --address 127.0.0.1 \
    --port 0 --hotels 1 --days 8 --web "$work/no-web" >"$work/cluster.out" 2>"$work/cluster.err" &
  pid=$!
  check "serve --password logs in" \
    test -n "$(wait_for 'hotel serving http://' "$work/cluster.out" "$pid")"
  check "with a warning about ps" grep -q "shows in \`ps\`" "$work/cluster.err"
  check "and ps no longer shows it" bash -c "! tr '\0' ' ' </proc/$pid/cmdline | grep -q -- '$super'"
  end "$pid"
  pid=""
  check "the cluster password is in no output" \
    bash -c "! grep -rq -- '$super' '$work'/*.out '$work/cluster.err'"
fi

# --- 4. A cluster with TLS -------------------------------------------------------------------------
if [ -n "$cqld" ]; then
  "$cqld" --data "$work/cqld-tls" --address 127.0.0.1 --port 0 --admin-port 0 --tls-cert "$work/cert.pem" \
    --tls-key "$work/key.pem" >"$work/cqld-tls.out" 2>"$work/cqld-tls.err" &
  tls_pid=$!
  port=$(wait_for '127\.0\.0\.1:[0-9]+' "$work/cqld-tls.out" "$tls_pid" | cut -d: -f2)
  if [ -z "$port" ]; then
    echo "hotel cli: cqld with TLS did not start:" >&2
    cat "$work/cqld-tls.out" "$work/cqld-tls.err" >&2
    exit 1
  fi
  check "the ready line says TLS is on" grep -q "tls on" "$work/cqld-tls.out"
  tls_cluster=(--cassandra "127.0.0.1:$port")
  timeout 60 "$hotel" users list "${tls_cluster[@]}" >"$work/tls-plain.out" 2>&1
  check "plaintext to a TLS cluster fails" test $? -ne 0
  timeout 60 "$hotel" users list "${tls_cluster[@]}" --tls-ca "$work/cert.pem" \
    >"$work/tls-ok.out" 2>&1
  check "--tls-ca connects with TLS" test $? -eq 0
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj /CN=other -keyout "$work/other.key" -out "$work/other.pem" >/dev/null 2>&1
  timeout 60 "$hotel" users list "${tls_cluster[@]}" --tls-ca "$work/other.pem" \
    >"$work/tls-other.out" 2>&1
  check "another CA is refused" grep -q "certificate verify failed" "$work/tls-other.out"
  end "$tls_pid"
fi

if [ "$failures" -gt 0 ]; then
  echo "hotel cli: $failures check(s) failed; the service's stderr:" >&2
  cat "$work/serve.err" >&2
  exit 1
fi
echo "hotel cli: all checks passed"
