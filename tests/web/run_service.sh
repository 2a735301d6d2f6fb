#!/usr/bin/env bash
# The web UI journey against the real service: creates a staff account with a random password
# (`hotel users add`, the password through HOTEL_USER_PASSWORD), starts `hotel serve` on the fresh
# data directory (schema and the small sample are created on first start) on a free 127.0.0.1
# port, runs tests/web/run.sh against it with HOTEL_URL and the account in HOTEL_STAFF_USER /
# HOTEL_STAFF_PASSWORD, and always stops the service and removes the directory. CTest `web.e2e_service`. With a CQLD_BINARY, the service runs in remote mode
# instead: a fresh `cqld` on a free port, and `hotel serve --cassandra` through the C++ driver
# (CTest `web.e2e_cassandra`).
#
# Usage: tests/web/run_service.sh HOTEL_BINARY [CQLD_BINARY]
# Exits 77 when run.sh skips (node or chromium missing); fails if the service does not start
# within 120 s or exits non-zero on SIGTERM.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hotel=${1:?usage: run_service.sh HOTEL_BINARY [CQLD_BINARY]}
cqld=${2:-}

work=$(mktemp -d)
pid=""
cqld_pid=""
stop() {
  local status=0
  # The service stops first, then cqld, so the service never sees its database vanish.
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "web e2e: hotel did not stop on SIGTERM; killing it" >&2
      kill -KILL "$pid"
      status=1
    fi
    wait "$pid" || status=$?
  fi
  if [ -n "$cqld_pid" ] && kill -0 "$cqld_pid" 2>/dev/null; then
    kill -TERM "$cqld_pid"
    for _ in $(seq 100); do kill -0 "$cqld_pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$cqld_pid" 2>/dev/null && kill -KILL "$cqld_pid"
    wait "$cqld_pid" || status=$?
  fi
  rm -rf "$work"
  return $status
}
trap 'stop' EXIT

where=(--data "$work/data")
if [ -n "$cqld" ]; then
  "$cqld" --data "$work/cqld" --address 127.0.0.1 --port 0 --admin-port 0 >"$work/cqld.out" 2>"$work/cqld.err" &
  cqld_pid=$!
  port=""
  for _ in $(seq 200); do
    port=$(grep -o '127\.0\.0\.1:[0-9]*' "$work/cqld.out" 2>/dev/null | head -1 | cut -d: -f2 || true)
    [ -n "$port" ] && break
    kill -0 "$cqld_pid" 2>/dev/null || break
    sleep 0.05
  done
  if [ -z "$port" ]; then
    echo "web e2e: cqld did not start:" >&2
    cat "$work/cqld.out" "$work/cqld.err" >&2
    exit 1
  fi
  where=(--cassandra "127.0.0.1:$port")
fi
export HOTEL_STAFF_USER=e2e-staff
HOTEL_STAFF_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')
export HOTEL_STAFF_PASSWORD
if ! HOTEL_USER_PASSWORD=$HOTEL_STAFF_PASSWORD "$hotel" users add "$HOTEL_STAFF_USER" "${where[@]}" \
    >"$work/users.out" 2>&1; then
  echo "web e2e: hotel users add failed:" >&2
  cat "$work/users.out" >&2
  exit 1
fi
"$hotel" serve "${where[@]}" --address 127.0.0.1 --port 0 --web "$root/web" \
  >"$work/out" 2>"$work/err" &
pid=$!
url=""
for _ in $(seq 1200); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/out" 2>/dev/null | head -1 || true)
  [ -n "$url" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "web e2e: hotel serve did not start:" >&2
  cat "$work/out" "$work/err" >&2
  exit 1
fi
echo "web e2e: hotel serving $url"

HOTEL_URL=$url "$here/run.sh"
status=$?
trap - EXIT
if ! stop; then
  echo "web e2e: hotel exited badly on SIGTERM" >&2
  [ "$status" -eq 0 ] && status=1
fi
exit $status
