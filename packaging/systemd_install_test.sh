#!/usr/bin/env bash
# The Debian package installed for real on Debian 12 with systemd running (`make
# package-install-test`; docs/operations.md, "Installing"). Needs root, debootstrap and
# systemd-nspawn (scripts/install-deps installs them), and reaches deb.debian.org once per
# run to fetch the package's dependencies; it is not part of `make test`.
#
#   1. a minimal Debian 12 root with systemd (debootstrap; cached in ROOTFS_CACHE, default
#      build/nsroot, and copied afresh for every run, so each run starts clean);
#   2. the .deb's dependencies installed into that copy (`apt-get satisfy` in a chroot, the
#      host's network);
#   3. the copy booted with systemd-nspawn and its own network namespace (its loopback cannot
#      clash with servers on the host), then `dpkg -i cqld_*.deb` in it, so the maintainer
#      scripts run under a live systemd;
#   4. both services enabled and active as systemd started them (the package's postinst), under
#      their own users, and answering: cqld on CQL (`cql`) and on its admin port (`cqld admin
#      status`), hotel on /health/ready and /;
#   5. `apt-get purge cqld`: the services stop and their users and data go.
# The container is stopped and its root removed at the end, also on failure.
#
# Usage: packaging/systemd_install_test.sh [DEB]   (default: build/package/cqld_*_amd64.deb)
set -euo pipefail

cd "$(dirname "$0")/.."
deb=${1:-$(ls build/package/cqld_*_amd64.deb 2>/dev/null | head -n 1)}
[ -n "$deb" ] && [ -f "$deb" ] || {
  echo "install test: no package; run 'make package' first" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || {
  echo "install test: needs root (debootstrap, systemd-nspawn)" >&2
  exit 1
}
for tool in debootstrap systemd-nspawn nsenter; do
  command -v "$tool" >/dev/null || {
    echo "install test: $tool is missing (scripts/install-deps installs it)" >&2
    exit 1
  }
done

cache=${ROOTFS_CACHE:-build/nsroot}
work=$(mktemp -d /var/tmp/cqld-install-test.XXXXXX)
root=$work/root
nspawn_pid=
leader=
cleanup() {
  if [ -n "$nspawn_pid" ] && kill -0 "$nspawn_pid" 2>/dev/null; then
    kill -TERM "$nspawn_pid" 2>/dev/null || true # systemd-nspawn powers the container off
    for _ in $(seq 1 100); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$nspawn_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "install test: $*" >&2
  if [ -n "$leader" ]; then
    inside journalctl --no-pager -n 40 -u cqld -u hotel >&2 || true
  fi
  exit 1
}
# Runs a command in the booted container (all its namespaces).
inside() { nsenter -t "$leader" -a "$@"; }

# --- 1. The root ----------------------------------------------------------------------------
if [ ! -x "$cache/lib/systemd/systemd" ]; then
  echo "install test: making a Debian 12 root in $cache (once)"
  rm -rf "$cache"
  debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,ca-certificates,curl \
    bookworm "$cache" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { cat "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
fi
cp -a "$cache" "$root"
cp "$deb" "$root/root/cqld.deb"

# --- 2. The dependencies, installed with the host's network -------------------------------
# apt-get satisfy installs what the package's Depends names (libraries, adduser); the package
# itself is installed later with dpkg, in the booted container, so that its maintainer scripts
# run against a live systemd. (apt's offline install of a local .deb refuses its own cached
# copy: "Pathname to install is not absolute".)
depends=$(dpkg-deb -f "$deb" Depends)
chroot "$root" apt-get update -qq >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get update"; }
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get satisfy -y -qq "$depends" \
  >>"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "installing the dependencies"; }

# --- 3. Boot, install -----------------------------------------------------------------------
systemd-nspawn -q -D "$root" --boot --private-network --register=no --keep-unit \
  --console=passive >"$work/nspawn.log" 2>&1 &
nspawn_pid=$!
for _ in $(seq 1 300); do
  leader=$(pgrep -P "$nspawn_pid" -x systemd || true)
  [ -n "$leader" ] && break
  kill -0 "$nspawn_pid" 2>/dev/null || { cat "$work/nspawn.log" >&2; fail "the container did not boot"; }
  sleep 0.1
done
[ -n "$leader" ] || fail "no systemd in the container"
state=
for _ in $(seq 1 300); do
  state=$(inside systemctl is-system-running 2>/dev/null || true)
  [ "$state" = running ] || [ "$state" = degraded ] && break
  sleep 0.1
done
[ "$state" = running ] || [ "$state" = degraded ] || fail "systemd is '$state', not running"
echo "install test: Debian 12 booted with systemd ($state); installing $(basename "$deb")"
inside env DEBIAN_FRONTEND=noninteractive dpkg -i /root/cqld.deb >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "dpkg -i failed"; }

# --- 4. The services, as systemd runs them --------------------------------------------------
for unit in cqld hotel; do
  inside systemctl is-enabled -q "$unit" || fail "$unit is not enabled"
  active=
  for _ in $(seq 1 200); do
    active=$(inside systemctl is-active "$unit" || true)
    [ "$active" = active ] && break
    sleep 0.1
  done
  [ "$active" = active ] || fail "$unit is '$active', not active"
  user=$(inside systemctl show -p User --value "$unit")
  [ "$user" = "$unit" ] || fail "$unit runs as '$user'"
  main=$(inside systemctl show -p MainPID --value "$unit")
  owner=$(inside stat -c %U "/proc/$main")
  [ "$owner" = "$unit" ] || fail "$unit's process $main belongs to '$owner'"
done
answered=
for _ in $(seq 1 100); do
  if inside cql 127.0.0.1 9042 -e "SELECT release_version FROM system.local" >"$work/cql.out" 2>&1; then
    answered=yes
    break
  fi
  sleep 0.1
done
[ -n "$answered" ] || { cat "$work/cql.out" >&2; fail "cqld does not answer CQL on 9042"; }
grep -q "4\.1\.3" "$work/cql.out" || fail "system.local: $(cat "$work/cql.out")"
inside cqld admin status >"$work/admin.out" 2>&1 || { cat "$work/admin.out" >&2; fail "cqld admin status"; }
grep -q "^UN  127\.0\.0\.1" "$work/admin.out" || fail "cqld admin status: $(cat "$work/admin.out")"
ready=
for _ in $(seq 1 300); do
  if inside curl -fsS http://127.0.0.1:8080/health/ready >"$work/ready.out" 2>/dev/null; then
    ready=yes
    break
  fi
  sleep 0.1
done
[ -n "$ready" ] || fail "hotel is not ready on 8080"
inside curl -fsS http://127.0.0.1:8080/ | grep -qi "<html" || fail "hotel does not serve its web UI"
[ -f "$root/etc/cqld/cqld.yaml" ] || fail "no /etc/cqld/cqld.yaml"
# (stat inside: the host would name the owner's uid after its own users)
for directory in /var/lib/cqld /var/lib/hotel; do
  mode=$(inside stat -c %U:%a "$directory")
  [ "$mode" = "$(basename "$directory"):750" ] || fail "$directory is $mode"
done
echo "install test: cqld and hotel run under systemd as their own users and answer"

# --- 5. Purge -------------------------------------------------------------------------------
inside env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq cqld >"$work/purge.log" 2>&1 ||
  { cat "$work/purge.log" >&2; fail "apt-get purge failed"; }
for unit in cqld hotel; do
  ! inside systemctl is-active -q "$unit" || fail "$unit still runs after purge"
  ! inside getent passwd "$unit" >/dev/null || fail "user $unit left after purge"
done
[ ! -e "$root/var/lib/cqld" ] || fail "/var/lib/cqld left after purge"
echo "install test: ok"
