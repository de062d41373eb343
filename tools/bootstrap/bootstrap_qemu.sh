#!/usr/bin/env bash
# Builds the SDK's QEMU (qemu/: QEMU with the Ethos-U NPU device) unless the
# binary for the current sources is already there.
#
#   bootstrap_qemu.sh          inside the offline build root (tools/bazel)
#   bootstrap_qemu.sh --host   on the host, for a host Bazel (needs QEMU's
#                              Debian build dependencies installed)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$here/common.sh"
workspace="$(cd "$here/../.." && pwd)"
host_mode="${1:-}"

bin="$(sdk_qemu_bin "$workspace" "$host_mode")"
key="$(sdk_qemu_key "$workspace")"
log="$SDK_LOGS/qemu-build.log"
if [ -n "$host_mode" ]; then
  [ -x "$bin" ] && exit 0
  base="$SDK_CACHE"
else
  [ -x "$SDK_ROOT$bin" ] && exit 0
  base="$SDK_ROOT$SDK_ROOT_OPT"
fi
mkdir -p "$SDK_LOGS" "$base"

# What build_qemu.sh reads, copied so it never sees a half-edited checkout.
inputs="$base/inputs-$key"
rm -rf "$base"/inputs-*
mkdir -p "$inputs/qemu"
cp "$here/build_qemu.sh" "$here/qemu-source.sha256" "$workspace/sim/device/device_abi.h" "$inputs/"
cp -r "$workspace/qemu/hw" "$workspace/qemu/configs" "$workspace/qemu/patches" "$inputs/qemu/"

if [ -n "$host_mode" ]; then
  missing=()
  for tool in meson ninja pkg-config flex bison python3 dpkg-source patch cc apt-get; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  if command -v meson >/dev/null && ! printf '%s\n1.5.0\n' "$(meson --version)" | sort -V -C -r; then
    missing+=("meson>=1.5 (have $(meson --version))")
  fi
  if command -v pkg-config >/dev/null; then
    pkg-config --atleast-version=2.66 glib-2.0 || missing+=("glib-2.0>=2.66")
  fi
  [ -f /usr/include/libfdt.h ] || missing+=(libfdt)
  # QEMU's configure makes a venv, which needs ensurepip.
  python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
  [ ${#missing[@]} = 0 ] ||
    sdk_die "building the SDK's QEMU on the host needs: ${missing[*]} (Debian: apt-get install meson ninja-build pkgconf libglib2.0-dev libfdt-dev flex bison python3-venv dpkg-dev patch build-essential; meson >= 1.5 from bookworm-backports or newer)"
  mirror="$(sdk_host_mirror)"
  [ -n "$mirror" ] || sdk_die "no Debian mirror found in /etc/apt for QEMU's source (set ETHOSU_SDK_APT_MIRROR)"
  build=("$inputs/build_qemu.sh" "$base" "$inputs" "$key" "$mirror")
else
  # Inside the root, with the mirror the root itself uses.
  mirror="$(awk '$1 == "deb" { print $2; exit }' "$SDK_ROOT/etc/apt/sources.list")"
  build=(sdk_in_root "$SDK_ROOT" /bin/bash "$SDK_ROOT_OPT/inputs-$key/build_qemu.sh"
         "$SDK_ROOT_OPT" "$SDK_ROOT_OPT/inputs-$key" "$key" "$mirror")
fi
start=$SECONDS
sdk_log "building QEMU with the Ethos-U device (about 6 minutes the first time, seconds after a device edit; log: $log)"
"${build[@]}" > "$log" 2>&1 ||
  sdk_die "building the SDK's QEMU failed: $(grep -m1 '^\[build_qemu\] error' "$log" || tail -n 1 "$log"); see $log"
rm -rf "$inputs"
sdk_log "QEMU with the Ethos-U device ready in $((SECONDS - start)) s: $bin"
