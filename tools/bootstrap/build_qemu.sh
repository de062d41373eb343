#!/usr/bin/env bash
# Builds the SDK's qemu-system-arm (QEMU with the Ethos-U NPU device, qemu/)
# from trixie's QEMU source package. Runs inside the offline build root, or on
# the host when a host Bazel is used; bootstrap_qemu.sh stages its inputs.
#
#   build_qemu.sh BASE INPUTS KEY MIRROR
#
# BASE: where downloads, the build directory and installs live.
# INPUTS: qemu-source.sha256, device_abi.h and qemu/{hw,configs,patches}.
# KEY: the inputs' hash; the binary goes to BASE/qemu-KEY/bin/qemu-system-arm.
# MIRROR: a Debian archive URL with trixie's sources.
#
# The build directory is keyed by QEMU's version only, so an edit to the
# device recompiles one file and relinks (seconds), not all of QEMU.
set -euo pipefail
base="$1" inputs="$2" key="$3" mirror="$4"

version="1:10.0.13+ds-0+deb13u1"
pins="$inputs/qemu-source.sha256"
downloads="$base/downloads/qemu-${version#*:}"
tree="$base/build-qemu-${version#*:}"
src="$tree/src"
install="$base/qemu-$key"
configure_args=(
  --target-list=arm-softmmu --without-default-features --without-default-devices
  --with-devices-arm=ethosu-sdk --enable-fdt=system
  --disable-docs --disable-tools --disable-user --disable-download --disable-werror
  --disable-install-blobs --disable-debug-info --disable-plugins
  --disable-qom-cast-debug
)

say() { printf '[build_qemu] %4ss %s\n' "$SECONDS" "$*"; }
die() { printf '[build_qemu] error: %s\n' "$*" >&2; exit 1; }

check_pins() { grep -v '^#' "$pins" | (cd "$1" && sha256sum --quiet -c -); }
verified() { [ -d "$downloads" ] && check_pins "$downloads" >/dev/null 2>&1; }

fetch_source() {
  verified && return
  say "downloading QEMU $version source (apt-get source, trixie)"
  local tmp
  mkdir -p "$base/downloads"
  tmp="$(mktemp -d "$base/downloads/.qemu.XXXXXX")"
  # A private apt configuration: the system's sources stay untouched.
  mkdir -p "$tmp/apt/lists/partial" "$tmp/apt/cache/archives/partial" "$tmp/files"
  printf 'deb-src %s trixie main\n' "$mirror" > "$tmp/apt/sources.list"
  local apt=(apt-get -q -o "Dir::Etc::SourceList=$tmp/apt/sources.list"
             -o Dir::Etc::SourceParts=/nonexistent -o "Dir::State::Lists=$tmp/apt/lists"
             -o "Dir::Cache=$tmp/apt/cache" -o Dir::Cache::srcpkgcache= -o Dir::Cache::pkgcache=
             -o Acquire::Check-Valid-Until=false -o Debug::NoLocking=1)
  "${apt[@]}" update || die "apt-get update for trixie's sources failed (mirror $mirror)"
  (cd "$tmp/files" && "${apt[@]}" source --download-only "qemu=$version") ||
    die "apt-get source qemu=$version failed (mirror $mirror)"
  check_pins "$tmp/files" ||
    die "QEMU source files do not match tools/bootstrap/qemu-source.sha256"
  rm -rf "$downloads"
  mv "$tmp/files" "$downloads"
  rm -rf "$tmp"
}

extract() {
  say "unpacking QEMU $version with Debian's patches (dpkg-source -x)"
  rm -rf "$tree"
  mkdir -p "$tree"
  dpkg-source -x "$downloads/qemu_${version#*:}.dsc" "$tree/src.tmp" || die "dpkg-source -x failed"
  mv "$tree/src.tmp" "$src"
}

# Our patches: undo the ones applied last time, apply the current ones. A
# tree left half-patched (marker present) is unpacked again.
sync_patches() {
  local applied="$tree/applied-patches" patch
  if diff -r "$inputs/qemu/patches" "$applied" >/dev/null 2>&1 && [ ! -e "$tree/patching" ]; then
    return
  fi
  if [ -e "$tree/patching" ]; then
    extract
  elif [ -d "$applied" ]; then
    touch "$tree/patching"
    for patch in $(find "$applied" -name '*.patch' | LC_ALL=C sort -r); do
      patch -d "$src" -p1 -R -s --no-backup-if-mismatch < "$patch" || { extract; break; }
    done
  fi
  touch "$tree/patching"
  rm -rf "$applied"
  for patch in $(find "$inputs/qemu/patches" -name '*.patch' | LC_ALL=C sort); do
    say "applying ${patch##*/}"
    patch -d "$src" -p1 -N -s --no-backup-if-mismatch < "$patch" ||
      die "${patch##*/} does not apply to QEMU $version"
  done
  cp -r "$inputs/qemu/patches" "$applied"
  rm -f "$tree/patching"
}

# Our own files, copied only when changed so ninja rebuilds only what changed.
sync_files() {
  local file
  (cd "$inputs/qemu" && find hw configs -type f) | while read -r file; do
    mkdir -p "$(dirname "$src/$file")"
    cmp -s "$inputs/qemu/$file" "$src/$file" || cp "$inputs/qemu/$file" "$src/$file"
  done
  cmp -s "$inputs/device_abi.h" "$src/hw/misc/device_abi.h" ||
    cp "$inputs/device_abi.h" "$src/hw/misc/device_abi.h"
}

configure() {
  local build="$src/build"
  if [ -f "$build/build.ninja" ] && [ "$(cat "$build/.esdk-configure" 2>/dev/null)" = "${configure_args[*]}" ]; then
    return
  fi
  say "configuring: ${configure_args[*]}"
  rm -rf "$build"
  mkdir -p "$build"
  (cd "$build" && ../configure "${configure_args[@]}") || die "QEMU's configure failed"
  printf '%s\n' "${configure_args[*]}" > "$build/.esdk-configure"
}

fetch_source
[ -d "$src" ] || extract
sync_patches
sync_files
configure
say "ninja qemu-system-arm"
ninja -C "$src/build" -j "$(nproc)" qemu-system-arm || die "building qemu-system-arm failed"

rm -rf "$install.tmp"
mkdir -p "$install.tmp/bin"
cp "$src/build/qemu-system-arm" "$install.tmp/bin/"
printf 'QEMU %s (Debian source) with the Ethos-U SDK device, inputs %s\n' "$version" "$key" > "$install.tmp/BUILD-INFO"
rm -rf "$install"
mv "$install.tmp" "$install"
# Keep the newest few builds (other checkouts may use them); drop the rest.
find "$base" -maxdepth 1 -name 'qemu-*' -type d -printf '%T@ %p\n' | sort -rn | tail -n +5 |
  cut -d' ' -f2- | xargs -r rm -rf
say "installed $install/bin/qemu-system-arm"
