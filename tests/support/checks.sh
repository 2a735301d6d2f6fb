# Shell helpers of the end-to-end tests that run binaries as processes (apps/hotel/cli_test.sh,
# packaging/package_test.sh). Source it after `set -uo pipefail`; it defines:
#   require_tools LABEL TOOL...   exits 77 (CTest's skip) naming the first TOOL not installed
#   end PID                       SIGTERM, then SIGKILL after 10 s; nothing for "" or a gone PID
#   wait_for REGEX FILE PID       prints the first match of REGEX in FILE once it shows (within
#                                 120 s); nothing when PID exits first
#   started REGEX OUT ERR PID WHAT
#                                 as wait_for on OUT; when nothing shows, prints "WHAT did not
#                                 start:", OUT and ERR on stderr and exits 1
#   check DESCRIPTION COMMAND...  runs the command, prints ok/FAILED, counts failures in
#                                 $failures (set to 0 here)
# shellcheck shell=bash

failures=0

require_tools() {
  local label=$1
  shift
  local tool
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "$label: skipped, $tool is missing"
      exit 77
    fi
  done
}

end() {
  if [ -n "$1" ] && kill -0 "$1" 2>/dev/null; then
    kill -TERM "$1"
    for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$1" 2>/dev/null && kill -KILL "$1"
  fi
}

wait_for() {
  local found=""
  for _ in $(seq 1200); do
    found=$(grep -oE "$1" "$2" 2>/dev/null | head -1 || true)
    [ -n "$found" ] && break
    kill -0 "$3" 2>/dev/null || break
    sleep 0.1
  done
  echo "$found"
}

started() {
  local found
  found=$(wait_for "$1" "$2" "$4")
  if [ -z "$found" ]; then
    echo "$5 did not start:" >&2
    cat "$2" "$3" >&2
    exit 1
  fi
  echo "$found"
}

check() {
  local what=$1
  shift
  if "$@"; then
    echo "ok: $what"
  else
    echo "FAILED: $what" >&2
    failures=$((failures + 1))
  fi
}
