# Helpers of the `cqld admin` end-to-end tests (cqld_admin_test.sh, cqld_restore_test.sh):
# sourced, not run.
#
#   admin_test_setup CQLD CQL        sets $cqld, $cql, a scratch folder $tmp, and a trap that
#                                    kills a cqld still running and removes $tmp on exit
#   start_cqld NAME DATA [FLAGS...]  starts cqld on 127.0.0.1 with free ports; sets $pid,
#                                    $port and $admin_port from its ready line
#   stop_cqld                        SIGTERM, then checks exit 0
#   admin ARGS...                    runs `cqld admin` against it: $out, $err and $status
#   expect_admin STATUS ARGS...      the same, failing unless it exits STATUS
#   run_cql STATEMENTS               runs statements through `cql`, output in $tmp/cql.out

pid=
admin_test_setup() {
  cqld=$1
  cql=$2
  tmp=$(mktemp -d)
  trap 'stop_all; rm -rf "$tmp"' EXIT
}

fail() {
  echo "$(basename "$0"): $*" >&2
  for f in "$tmp"/cqld*.err; do [ -s "$f" ] && sed "s|^|  $(basename "$f"): |" "$f" | tail -n 20 >&2; done
  exit 1
}

stop_all() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
}

start_cqld() {
  local name=$1 data=$2
  shift 2
  : >"$tmp/$name.out"
  "$cqld" --data "$data" --address 127.0.0.1 --port 0 --admin-port 0 "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pid=$!
  for _ in $(seq 1 400); do
    [ -s "$tmp/$name.out" ] && break
    kill -0 "$pid" 2>/dev/null || fail "cqld exited before it was ready"
    sleep 0.05
  done
  local line
  line=$(head -n 1 "$tmp/$name.out")
  [[ "$line" =~ ^cqld\ listening\ on\ 127\.0\.0\.1:([0-9]+)\ .*,\ admin\ 127\.0\.0\.1:([0-9]+)\)$ ]] ||
    fail "unexpected ready line: '$line'"
  port=${BASH_REMATCH[1]}
  admin_port=${BASH_REMATCH[2]}
}

stop_cqld() {
  kill -TERM "$pid"
  local code=0
  wait "$pid" || code=$?
  pid=
  [ "$code" -eq 0 ] || fail "cqld exited $code after SIGTERM"
}

admin() {
  status=0
  "$cqld" admin --admin-port "$admin_port" "$@" >"$tmp/admin.out" 2>"$tmp/admin.err" || status=$?
  out=$(cat "$tmp/admin.out")
  err=$(cat "$tmp/admin.err")
}

expect_admin() {
  local want=$1
  shift
  admin "$@"
  [ "$status" -eq "$want" ] ||
    fail "cqld admin $* exited $status, not $want; stdout: $out; stderr: $err"
}

run_cql() {
  "$cql" 127.0.0.1 "$port" "${cql_login[@]}" -e "$1" >"$tmp/cql.out" 2>&1 ||
    fail "cql failed on: $1: $(cat "$tmp/cql.out")"
}
cql_login=()
