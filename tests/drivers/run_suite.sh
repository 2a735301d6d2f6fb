#!/usr/bin/env bash
# One driver suite against a fresh cqld: the CTest entry point (tests/CMakeLists.txt).
#
#   run_suite.sh SUITE CQLD_BINARY BUILD_DIR
#
# SUITE is one of:
#   python     tests/drivers/python with pytest on Debian's /usr/bin/python3 and python3-cassandra;
#              default Cluster() settings, so the protocol version is negotiated
#   python_v5  the same suite with CQLD_PROTOCOL=5 and CQLD_COMPRESSION=lz4 (snappy when
#              python3-lz4 is missing; the driver compresses only when the module imports)
#   python_v4  the same with CQLD_PROTOCOL=4 and the same compression (v4 envelope compression)
#   python_v5_plain  the same with CQLD_PROTOCOL=5 and no compression (plain v5 segments)
#   python_auth  tests/drivers/python_auth: cqld with --authenticator PasswordAuthenticator,
#              --authorizer CassandraAuthorizer and CQLD_SUPERUSER_PASSWORD; logins, refusals,
#              roles and permissions through the driver's PlainTextAuthProvider, v4 and v5
#   python_tls tests/drivers/python_tls: certificates from the openssl CLI (make_certs.sh), cqld
#              with --tls-cert/--tls-key/--tls-ca and the python_auth flags for test_tls.py,
#              then another cqld that also has --tls-require-client-cert for test_mutual_tls.py;
#              the driver's ssl_context (CA and name verified) with PlainTextAuthProvider, v4, v5
#   node       tests/drivers/node with node's built-in test runner and npm's cassandra-driver
#              (installed by scripts/install-node-deps): every *.test.js but auth.test.js
#   node_auth  tests/drivers/node/auth.test.js against cqld with logins and permissions on, as
#              python_auth: the driver's PlainTextAuthProvider, protocol v4 (the driver's highest)
#   node_tls   the same over TLS: cqld with --tls-cert/--tls-key (certificates from
#              python_tls/make_certs.sh), the driver verifying it against CQLD_TLS_CA
#   go         tests/drivers/go with `go test` in GOPATH mode on Debian's gocql sources
#              (golang-github-gocql-gocql-dev, /usr/share/gocode): GO111MODULE=off,
#              GOPATH=/usr/share/gocode:BUILD_DIR/drivers-gopath, GOCACHE=BUILD_DIR/drivers-gocache,
#              GOFLAGS unset, GOPROXY=off — fully offline with Go 1.19
#   go_auth    tests/drivers/go_auth the same way, against cqld with logins and permissions on, as
#              python_auth: gocql.PasswordAuthenticator, protocol v4 pinned and discovered
#   go_tls     go_auth over TLS, as node_tls
#   examples   examples/python/hotel_example.py and examples/node/hotel_example.js, unchanged,
#              with CASSANDRA_HOST/CASSANDRA_PORT pointing at cqld; output diffed with
#              tests/drivers/examples.expected
# The *_auth suites keep flags already in $CQLD_ARGS, and their clients connect over TLS when
# CQLD_TLS_CA is set (tests/drivers/README.md).
# Exits 77 (CTest SKIP_RETURN_CODE) with a SKIP line only when the suite's toolchain is missing.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ $# -lt 3 ]; then
  echo "usage: $0 python|python_v4|python_v5|python_v5_plain|python_auth|python_tls|node|node_auth|node_tls|go|go_auth|go_tls|examples CQLD_BINARY BUILD_DIR" >&2
  exit 2
fi
suite=$1
cqld=$(realpath "$2")
build_dir=$(realpath -m "$3")
python=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1

skip() {
  echo "SKIP: $*"
  exit 77
}

need_python_driver() {
  [ -x "$python" ] || skip "$python is missing (install Debian's python3: scripts/install-deps)"
  "$python" -c 'import cassandra' 2>/dev/null ||
    skip "python3-cassandra is missing (scripts/install-deps)"
}

need_node_driver() {
  command -v node >/dev/null 2>&1 || skip "node is missing (scripts/install-deps)"
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge 18 ] || skip "node $major has no node:test; need Node.js 18 or later"
  if [ ! -d "$here/node/node_modules/cassandra-driver" ]; then
    command -v npm >/dev/null 2>&1 || skip "npm is missing (scripts/install-deps)"
    echo "FAIL: tests/drivers/node/node_modules is missing: run scripts/install-node-deps" >&2
    exit 1
  fi
}

# The *_auth suites: cqld with authentication and authorization, the superuser's password
# made up per run. Extra flags already in $CQLD_ARGS (e.g. TLS) are kept.
auth_args() {
  export CQLD_ARGS="${CQLD_ARGS:+$CQLD_ARGS }--authenticator PasswordAuthenticator --authorizer CassandraAuthorizer"
  export CQLD_SUPERUSER_PASSWORD="drivers-superuser-$$"
}

# For the *_tls suites: a CA and a server certificate for 127.0.0.1 (python_tls/make_certs.sh)
# in a temporary directory removed on exit; cqld gets --tls-cert/--tls-key, the tests the CA in
# CQLD_TLS_CA (they then connect with TLS and verify the server).
tls_args() {
  command -v openssl >/dev/null 2>&1 || skip "openssl is missing (scripts/install-deps)"
  certs=$(mktemp -d "${TMPDIR:-/tmp}/cqld-tls.XXXXXX")
  trap 'rm -rf "$certs"' EXIT
  "$here/python_tls/make_certs.sh" "$certs" >/dev/null || {
    echo "FAIL: openssl could not make the test certificates" >&2
    exit 1
  }
  export CQLD_TLS_CA="$certs/ca.pem"
  export CQLD_ARGS="${CQLD_ARGS:+$CQLD_ARGS }--tls-cert $certs/server.pem --tls-key $certs/server.key"
}

case "$suite" in
  python | python_v4 | python_v5 | python_v5_plain)
    need_python_driver
    "$python" -c 'import pytest' 2>/dev/null || skip "python3-pytest is missing (scripts/install-deps)"
    if [ "$suite" = python_v5_plain ]; then
      export CQLD_PROTOCOL=5 CQLD_COMPRESSION=none
    elif [ "$suite" != python ]; then
      export CQLD_PROTOCOL=${suite#python_v}
      if "$python" -c 'import lz4' 2>/dev/null; then
        export CQLD_COMPRESSION=lz4
      elif "$python" -c 'import snappy' 2>/dev/null; then
        export CQLD_COMPRESSION=snappy
      else
        echo "note: neither python3-lz4 nor python3-snappy imports: running uncompressed"
      fi
    fi
    exec "$here/run_with_cqld.sh" "$cqld" -- \
      "$python" -m pytest -q -p no:cacheprovider "$here/python"
    ;;
  python_auth)
    need_python_driver
    "$python" -c 'import pytest' 2>/dev/null || skip "python3-pytest is missing (scripts/install-deps)"
    auth_args
    exec "$here/run_with_cqld.sh" "$cqld" -- \
      "$python" -m pytest -q -p no:cacheprovider "$here/python_auth"
    ;;
  python_tls)
    need_python_driver
    "$python" -c 'import pytest' 2>/dev/null || skip "python3-pytest is missing (scripts/install-deps)"
    command -v openssl >/dev/null 2>&1 || skip "openssl is missing (scripts/install-deps)"
    certs=$(mktemp -d "${TMPDIR:-/tmp}/cqld-tls.XXXXXX")
    trap 'rm -rf "$certs"' EXIT
    "$here/python_tls/make_certs.sh" "$certs" || {
      echo "FAIL: openssl could not make the test certificates" >&2
      exit 1
    }
    export CQLD_TLS_DIR=$certs CQLD_SUPERUSER_PASSWORD="drivers-superuser-$$"
    auth="--authenticator PasswordAuthenticator --authorizer CassandraAuthorizer"
    tls="--tls-cert $certs/server.pem --tls-key $certs/server.key --tls-ca $certs/ca.pem"
    status=0
    CQLD_ARGS="$auth $tls" "$here/run_with_cqld.sh" "$cqld" -- \
      "$python" -m pytest -q -p no:cacheprovider "$here/python_tls/test_tls.py" || status=1
    CQLD_ARGS="$auth $tls --tls-require-client-cert" "$here/run_with_cqld.sh" "$cqld" -- \
      "$python" -m pytest -q -p no:cacheprovider "$here/python_tls/test_mutual_tls.py" || status=1
    exit "$status"
    ;;
  node)
    need_node_driver
    # Every *.test.js but auth.test.js, which needs a cqld with authentication (node_auth).
    files=()
    for f in "$here/node/"*.test.js; do
      [ "$(basename "$f")" = auth.test.js ] || files+=("$f")
    done
    exec "$here/run_with_cqld.sh" "$cqld" -- node --test "${files[@]}"
    ;;
  node_auth | node_tls)
    need_node_driver
    auth_args
    [ "$suite" = node_tls ] && tls_args
    "$here/run_with_cqld.sh" "$cqld" -- node --test "$here/node/auth.test.js"
    exit $?
    ;;
  go | go_auth | go_tls)
    command -v go >/dev/null 2>&1 || skip "go is missing (Debian golang-go: scripts/install-deps)"
    [ -d /usr/share/gocode/src/github.com/gocql/gocql ] ||
      skip "gocql is missing (Debian golang-github-gocql-gocql-dev: scripts/install-deps)"
    dir=go
    if [ "$suite" != go ]; then
      dir=go_auth
      auth_args
    fi
    [ "$suite" = go_tls ] && tls_args
    mkdir -p "$build_dir/drivers-gopath" "$build_dir/drivers-gocache"
    cd "$here/$dir" || exit 1
    env -u GOFLAGS GO111MODULE=off GOPROXY=off GOTOOLCHAIN=local \
      GOPATH="/usr/share/gocode:$build_dir/drivers-gopath" GOCACHE="$build_dir/drivers-gocache" \
      "$here/run_with_cqld.sh" "$cqld" -- go test -count=1 -v .
    exit $?
    ;;
  examples)
    need_python_driver
    need_node_driver
    exec "$here/run_with_cqld.sh" "$cqld" -- "$0" examples-inner "$cqld" "$build_dir"
    ;;
  examples-inner)
    # Under run_with_cqld.sh: the examples only know Cassandra's variables.
    export CASSANDRA_HOST=$CQLD_HOST CASSANDRA_PORT=$CQLD_PORT
    export NODE_PATH="$here/node/node_modules"
    passed=0
    failed=0
    out=$(mktemp)
    err=$(mktemp)
    run_example() {
      echo "== $*"
      if ! "$@" >"$out" 2>"$err"; then
        echo "FAIL: $* exited non-zero:"
        cat "$out" "$err"
        failed=$((failed + 1))
      elif ! diff -u "$here/examples.expected" "$out"; then
        echo "FAIL: $* printed something else than tests/drivers/examples.expected"
        cat "$err"
        failed=$((failed + 1))
      else
        passed=$((passed + 1))
      fi
    }
    run_example "$python" "$root/examples/python/hotel_example.py"
    run_example node "$root/examples/node/hotel_example.js"
    rm -f "$out" "$err"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
    ;;
  *)
    echo "unknown suite: $suite" >&2
    exit 2
    ;;
esac
