#!/usr/bin/env bash
# Builds the offline build root: a Debian sid root filesystem (Bazel 7 lives
# only in sid) with trixie's Arm GNU toolchain and flatc added, and the build
# dependencies of the SDK's QEMU (bootstrap_qemu.sh builds it).
#
# Idempotent and resumable: each step leaves a stamp; an interrupted step is
# redone from its start. The root is built in "$SDK_ROOT.partial" and renamed
# only when complete, so a half-made root is never entered.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$here/common.sh"

packages_file="$here/root-packages.txt"
# A complete root is updated in place (for instance when the package list
# changes); a new one is built beside it and renamed when done.
if [ -d "$SDK_ROOT" ]; then work="$SDK_ROOT"; else work="$SDK_ROOT.partial"; fi
stamps="$work/.ethosu-sdk"

[ "$(id -u)" = 0 ] || sdk_die "building the offline root needs root (debootstrap, chroot)"

in_root() { sdk_in_root "$work" "$@"; }
apt_root() { in_root apt-get -o Acquire::Check-Valid-Until=false -o Dpkg::Use-Pty=0 "$@"; }

step_done() { [ -f "$stamps/$1" ]; }
mark_done() { mkdir -p "$stamps"; printf '%s\n' "${2:-done}" > "$stamps/$1"; }

mirror="$(sdk_host_mirror)"
[ -n "$mirror" ] || sdk_die "no Debian mirror found in /etc/apt (set ETHOSU_SDK_APT_MIRROR)"
mkdir -p "$SDK_LOGS"

if ! step_done debootstrap; then
  command -v debootstrap >/dev/null || {
    sdk_log "installing debootstrap on the host (apt-get)"
    { apt-get update && apt-get install -y debootstrap; } >> "$SDK_LOGS/host-apt.log" 2>&1 ||
      sdk_die "could not install debootstrap; see $SDK_LOGS/host-apt.log"
  }
  rm -rf "$work"
  sdk_log "debootstrap: Debian sid root with bazel-bootstrap (several minutes; log: $SDK_LOGS/debootstrap.log)"
  # sid's snapshot leaves one package (libgrpc) unconfigurable; the next
  # step repairs it, so a failing debootstrap is only fatal without apt.
  if ! debootstrap --variant=minbase --include=bazel-bootstrap,build-essential sid "$work" "$mirror" \
      > "$SDK_LOGS/debootstrap.log" 2>&1; then
    [ -x "$work/usr/bin/apt-get" ] || sdk_die "debootstrap failed; see $SDK_LOGS/debootstrap.log"
    sdk_log "debootstrap reported an error (expected for sid's libgrpc); repairing"
  fi
  mark_done debootstrap
fi

if ! step_done sources; then
  cat > "$work/etc/apt/sources.list" <<EOF
deb $mirror sid main
deb $mirror trixie main
deb $mirror trixie-updates main
EOF
  printf 'Acquire::Check-Valid-Until "false";\n' > "$work/etc/apt/apt.conf.d/99ethosu-sdk-snapshot"
  printf '127.0.0.1 localhost\n::1 localhost\n' > "$work/etc/hosts"
  mark_done sources
fi

if ! step_done repair; then
  sdk_log "repairing the root's package state (apt-get -f install)"
  { apt_root update && apt_root -f install -y; } >> "$SDK_LOGS/root-apt.log" 2>&1 ||
    sdk_die "apt-get -f install failed in the root; see $SDK_LOGS/root-apt.log"
  mark_done repair
fi

# Pinned packages that the root does not have yet (at their pinned version).
sdk_root_install_missing "$work" "$packages_file"

if [ "$work" != "$SDK_ROOT" ] && [ -d "$work" ]; then
  rm -rf "$SDK_ROOT"
  mv "$work" "$SDK_ROOT"
fi
sdk_log "offline build root ready: $SDK_ROOT"
