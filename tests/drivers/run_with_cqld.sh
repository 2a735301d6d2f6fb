#!/usr/bin/env bash
# Runs a command against a fresh cqld (tests/drivers/README.md).
#
#   run_with_cqld.sh CQLD_BINARY -- COMMAND [ARGS...]
#
# Makes a temporary data directory, starts `CQLD_BINARY --data DIR --address 127.0.0.1 --port 0 --admin-port 0`
# (loopback only), waits up to 10 s for its line `cqld listening on 127.0.0.1:PORT (...)`,
# exports CQLD_HOST and CQLD_PORT, and runs COMMAND. Extra cqld flags come from $CQLD_ARGS. Whatever happens, cqld is then stopped
# (SIGTERM; SIGKILL after 10 s) and the directory removed.
# Exit status: COMMAND's; 1 when COMMAND succeeded but cqld did not start, died, did not stop
# on SIGTERM, or exited non-zero (e.g. a sanitizer report); its stderr is printed then.
set -uo pipefail

if [ $# -lt 3 ] || [ "$2" != "--" ]; then
  echo "usage: $0 CQLD_BINARY -- COMMAND [ARGS...]" >&2
  exit 2
fi
cqld=$1
shift 2

work=$(mktemp -d "${TMPDIR:-/tmp}/cqld-drivers.XXXXXX")
cqld_pid=""
cqld_failed=0

stop_cqld() {
  [ -n "$cqld_pid" ] || return 0
  local pid=$cqld_pid status
  cqld_pid=""
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "run_with_cqld: cqld did not stop within 10 s of SIGTERM; killing it" >&2
      kill -KILL "$pid" 2>/dev/null
      cqld_failed=1
    fi
  else
    echo "run_with_cqld: cqld had already exited before SIGTERM" >&2
    cqld_failed=1
  fi
  wait "$pid"
  status=$?
  if [ "$status" -ne 0 ]; then
    echo "run_with_cqld: cqld exited with status $status" >&2
    cqld_failed=1
  fi
  if [ "$cqld_failed" -ne 0 ]; then
    echo "----- cqld stderr (last 60 lines) -----" >&2
    tail -n 60 "$work/cqld.err" >&2
    echo "---------------------------------------" >&2
  fi
}

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  stop_cqld
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

: >"$work/cqld.out"
: >"$work/cqld.err"
# CQLD_ARGS: extra flags for cqld (e.g. --authenticator PasswordAuthenticator), split on spaces.
# shellcheck disable=SC2086
"$cqld" --data "$work/data" --address 127.0.0.1 --port 0 --admin-port 0 ${CQLD_ARGS:-} \
  >"$work/cqld.out" 2>"$work/cqld.err" &
cqld_pid=$!

port=""
for _ in $(seq 100); do
  port=$(sed -n 's/^cqld listening on 127\.0\.0\.1:\([0-9][0-9]*\) (.*$/\1/p' "$work/cqld.out")
  [ -n "$port" ] && break
  kill -0 "$cqld_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "run_with_cqld: cqld did not print its listening line within 10 s" >&2
  echo "----- cqld stdout -----" >&2
  cat "$work/cqld.out" >&2
  cqld_failed=1
  stop_cqld
  exit 1
fi

export CQLD_HOST=127.0.0.1 CQLD_PORT=$port
"$@"
status=$?
stop_cqld
if [ "$status" -eq 0 ] && [ "$cqld_failed" -ne 0 ]; then
  status=1
fi
exit "$status"
