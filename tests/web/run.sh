#!/usr/bin/env bash
# The hotel web UI end to end in headless Chromium (tests/web/journey.test.mjs, the guest journey
# and the staff page; tests/web/staff.test.mjs, the staff console).
#
# Usage: tests/web/run.sh             starts the mock API (tests/web/mock_api.py) on a free port
#        HOTEL_URL=http://127.0.0.1:8080 tests/web/run.sh   tests a running `hotel serve`
# Exits 77 (skipped) when node or chromium is missing; scripts/install-deps installs both.
# Always stops the mock it started.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if ! command -v node >/dev/null 2>&1; then
  echo "web e2e: skipped, node is missing (scripts/install-deps installs it)"
  exit 77
fi
chromium=${CHROMIUM_PATH:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
  echo "web e2e: skipped, chromium is missing (scripts/install-deps installs it)"
  exit 77
fi
export CHROMIUM_PATH=$chromium
if [ ! -d "$here/node_modules/playwright-core" ]; then
  "$root/scripts/install-node-deps"
fi

mock_pid=""
work=$(mktemp -d)
cleanup() {
  if [ -n "$mock_pid" ] && kill -0 "$mock_pid" 2>/dev/null; then
    kill "$mock_pid" 2>/dev/null || true
    wait "$mock_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "${HOTEL_URL:-}" ]; then
  python3 "$here/mock_api.py" --port 0 --port-file "$work/port" >"$work/mock.log" 2>&1 &
  mock_pid=$!
  for _ in $(seq 1 100); do
    [ -s "$work/port" ] && break
    if ! kill -0 "$mock_pid" 2>/dev/null; then
      echo "web e2e: the mock API did not start:" >&2
      cat "$work/mock.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  [ -s "$work/port" ] || { echo "web e2e: the mock API did not start in 10 s" >&2; exit 1; }
  export HOTEL_URL="http://127.0.0.1:$(cat "$work/port")"
  echo "web e2e: mock API at $HOTEL_URL"
else
  echo "web e2e: testing $HOTEL_URL"
fi

cd "$here"
node --test --test-concurrency=1 --test-timeout=120000 journey.test.mjs staff.test.mjs
