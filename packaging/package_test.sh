#!/usr/bin/env bash
# The Debian package end to end (CTest package.deb; docs/operations.md, "Installing"):
#   1. `cpack -G DEB` in the build tree makes cqld_<version>_amd64.deb (in a temporary
#      directory; minutes for a debug tree: `make package-test`, not part of `make test`);
#   2. `dpkg-deb -c`: the binaries, units, configuration and documentation are in it;
#   3. `dpkg-deb -I`: the control fields, the shared-library dependencies, the conffiles;
#   4. the maintainer scripts pass `sh -n` and create the users and directories;
#   5. the unit files pass `systemd-analyze verify` (skipped, with a message, without it);
#   6. the packaged `hotel`, unpacked with `dpkg-deb -x`, started from `/` on a free port on
#      its embedded engine in a temporary directory, serves its UI at / and /health/live.
# Nothing is installed on the machine: installing for real needs root and systemd (the docs
# say how to check a real install). The server is stopped by its pid even when a check fails.
#
# Usage: packaging/package_test.sh BUILD_DIR SOURCE_DIR
# Exits 77 (skipped) when cpack, dpkg-deb, dpkg-shlibdeps or curl is missing.
set -uo pipefail

build=${1:?usage: package_test.sh BUILD_DIR SOURCE_DIR}
source_dir=${2:?usage: package_test.sh BUILD_DIR SOURCE_DIR}
# shellcheck source=tests/support/checks.sh
. "$source_dir/tests/support/checks.sh"
require_tools "package test" cpack dpkg-deb dpkg-shlibdeps curl

work=$(mktemp -d)
pid=""
stop() {
  end "$pid"
  rm -rf "$work"
}
trap stop EXIT

# --- 1. The package -----------------------------------------------------------------------------
started=$(date +%s)
if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
  echo "package test: cpack failed:" >&2
  cat "$work/cpack.log" >&2
  exit 1
fi
deb=$(find "$work/out" -maxdepth 1 -name "cqld_*_amd64.deb" | head -1)
if [ -z "$deb" ]; then
  echo "package test: no cqld_<version>_amd64.deb in $work/out:" >&2
  ls -la "$work/out" >&2
  exit 1
fi
echo "package test: $(basename "$deb"), $(du -h "$deb" | cut -f1), in $(($(date +%s) - started)) s"

# --- 2. Its files ---------------------------------------------------------------------------------
dpkg-deb -c "$deb" | awk '{print $NF}' >"$work/files"
for file in ./usr/bin/cqld ./usr/bin/cql ./usr/bin/hotel ./usr/bin/cqlmodel \
  ./lib/systemd/system/cqld.service ./lib/systemd/system/hotel.service ./etc/cqld/cqld.yaml ./usr/share/doc/cqld/README.md \
  ./usr/share/doc/cqld/operations.md ./usr/share/doc/cqld/security.md \
  ./usr/share/doc/cqld/examples/cqld.yaml; do
  check "the package holds $file" grep -qxF "$file" "$work/files"
done
check "no build-tree or developer files" bash -c "! grep -qE 'CMakeFiles|/dev/|_test' '$work/files'"

# --- 3. Control fields ----------------------------------------------------------------------------
dpkg-deb -I "$deb" >"$work/info"
field() { dpkg-deb -f "$deb" "$1"; }
check "Package: cqld" test "$(field Package)" = cqld
check "Architecture: amd64" test "$(field Architecture)" = amd64
check "Version is the project's" grep -qE '^[0-9]+\.[0-9]+\.[0-9]+' <<<"$(field Version)"
check "Maintainer and Description" test -n "$(field Maintainer)" -a -n "$(field Description)"
depends=$(field Depends)
echo "package test: Depends: $depends"
for library in adduser librocksdb libssl3 libfmt libboost-json libboost-url libreadline \
  liblz4 libsnappy libcrypt1 libstdc++6 libc6; do
  check "Depends names $library" grep -q "$library" <<<"$depends"
done
check "the conffiles list /etc/cqld/cqld.yaml" \
  bash -c "dpkg-deb --ctrl-tarfile '$deb' | tar -xO ./conffiles | grep -qxF /etc/cqld/cqld.yaml"

# --- 4. Maintainer scripts ------------------------------------------------------------------------
dpkg-deb -e "$deb" "$work/control"
for script in postinst prerm postrm; do
  check "$script is executable" test -x "$work/control/$script"
  check "$script passes sh -n" sh -n "$work/control/$script"
done
check "postinst creates the system users" grep -q 'adduser --system --group' "$work/control/postinst"
check "postinst creates both" grep -q 'add_system_user hotel' "$work/control/postinst"
check "postinst touches systemd only when it runs" grep -q '\[ -d /run/systemd/system \]' \
  "$work/control/postinst"
check "postrm removes users and data on purge only" \
  bash -c "sed -n '/purge/,\$p' '$work/control/postrm' | grep -q 'deluser --system'"

# --- 5. Units -------------------------------------------------------------------------------------
dpkg-deb -x "$deb" "$work/root"
for unit in cqld hotel; do
  file=$work/root/lib/systemd/system/$unit.service
  for setting in NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes PrivateTmp=yes \
    PrivateDevices=yes ProtectKernelTunables=yes ProtectKernelModules=yes ProtectKernelLogs=yes \
    ProtectControlGroups=yes 'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX' \
    RestrictNamespaces=yes LockPersonality=yes MemoryDenyWriteExecute=yes \
    SystemCallFilter=@system-service CapabilityBoundingSet= StateDirectory=$unit \
    ReadWritePaths=/var/lib/$unit Restart=on-failure User=$unit; do
    check "$unit.service: $setting" grep -qxF "$setting" "$file"
  done
done
if command -v systemd-analyze >/dev/null 2>&1; then
  # verify looks for the ExecStart binaries: point it at the unpacked ones.
  mkdir -p "$work/units"
  for unit in cqld hotel; do
    sed "s|/usr/bin/|$work/root/usr/bin/|" "$work/root/lib/systemd/system/$unit.service" \
      >"$work/units/$unit.service"
  done
  check "systemd-analyze verify" systemd-analyze verify --man=no "$work/units/cqld.service" \
    "$work/units/hotel.service"
else
  echo "package test: systemd-analyze is missing; the units were not verified"
fi

# --- 6. The packaged hotel, started from / ------------------------------------------------------
(cd / && exec "$work/root/usr/bin/hotel" serve --data "$work/data" --address 127.0.0.1 --port 0 \
  --hotels 1 --days 8 --notify-maildir "$work/mail" >"$work/serve.out" 2>"$work/serve.err") &
pid=$!
url=$(started 'http://127\.0\.0\.1:[0-9]+' "$work/serve.out" "$work/serve.err" "$pid" \
  "package test: the packaged hotel") || exit 1
curl -sS "$url/" >"$work/index.html"
check "the UI at / from the working directory /" cmp -s "$work/index.html" "$source_dir/web/index.html"
check "the UI's script" bash -c "curl -sS -o /dev/null -w '%{http_code}' '$url/static/app.js' | grep -qx 200"
check "/health/live" bash -c "curl -sS -o /dev/null -w '%{http_code}' '$url/health/live' | grep -qx 200"
check "/health/ready" bash -c "curl -sS '$url/health/ready' | grep -q '\"status\":\"ok\"'"
check "the notify worker's maildir" test -d "$work/mail/new" -a -d "$work/mail/tmp"

if [ "$failures" -gt 0 ]; then
  echo "package test: $failures check(s) failed" >&2
  exit 1
fi
echo "package test: all checks passed"
