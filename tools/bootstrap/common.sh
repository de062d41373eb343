# shellcheck shell=bash disable=SC2034
# Shared settings of the offline build root. Sourced by tools/bazel and the
# bootstrap steps; defines paths only, runs nothing.

# Everything we install lives outside the checkout so that every clone of the
# repository (CI makes a new one each run) reuses it.
SDK_CACHE="${ETHOSU_SDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ethosu-sdk}"
SDK_ROOT="$SDK_CACHE/sid-root"          # Debian sid root with Bazel 7 + Arm GCC
SDK_LOGS="$SDK_CACHE/logs"
SDK_BAZEL_CACHE="$SDK_CACHE/bazel"      # --disk_cache and --repository_cache
SDK_LOCK="$SDK_CACHE/bootstrap.lock"
# Where the SDK's QEMU lives inside the root (host-side Bazel: "$SDK_CACHE").
SDK_ROOT_OPT="/opt/ethosu-sdk"

# The host interpreter the venv is made from; the venv runs inside the root
# with this prefix bind-mounted at the same path.
SDK_HOST_PYTHON="${ETHOSU_SDK_HOST_PYTHON:-$(command -v python3.11 || command -v python3)}"

sdk_log() { printf '[ethosu-sdk] %s\n' "$*" >&2; }
sdk_die() { printf '[ethosu-sdk] error: %s\n' "$*" >&2; exit 1; }

# The venv's directory is keyed by the lock file's hash, so a changed lock
# builds a new venv next to the old one instead of mutating it in place.
sdk_venv_dir() {
  local lock="$1"
  local key
  key=$(sha256sum "$lock" | cut -c1-16)
  printf '%s/venv-%s' "$SDK_CACHE" "$key"
}

# Runs a command inside a root filesystem with /dev and /proc, a clean
# environment, and mounts private to this process tree.
sdk_in_root() {
  unshare --mount --propagation private -- /bin/sh -c '
    root="$1"; shift
    mount --rbind /dev "$root/dev"
    mount -t proc proc "$root/proc"
    exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
      PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"' sh "$@"
}

# The lines of a package list (root-packages.txt: "<suite> <package>[=<version>]")
# that the root at $1 does not have installed, read from its dpkg database.
# Derived from what is installed, not from a stamp of the list: checkouts
# sharing one root with different lists (branches) install an addition once,
# and a changed version again, instead of reinstalling on every switch.
sdk_root_missing_packages() {
  local root="$1" list="$2"
  awk -v status="$root/var/lib/dpkg/status" '
    BEGIN {
      # A missing database (no root yet) leaves "have" empty: all is missing.
      while ((getline line < status) > 0) {
        if (line ~ /^Package: /) name = substr(line, 10)
        else if (line ~ /^Version: /) version = substr(line, 10)
        else if (line == "Status: install ok installed") installed = 1
        else if (line == "") { if (installed) { have[name]; have[name "=" version] } name = version = ""; installed = 0 }
      }
      if (installed) { have[name]; have[name "=" version] }
    }
    NF && $1 !~ /^#/ && !($2 in have) { print $1, $2 }
  ' "$list"
}

# Installs into the root at $1 what sdk_root_missing_packages finds missing
# from the list $2; apt's output goes to $SDK_LOGS/root-apt.log.
sdk_root_install_missing() {
  local root="$1" list="$2" missing suite pkg log="$SDK_LOGS/root-apt.log"
  missing="$(sdk_root_missing_packages "$root" "$list")"
  [ -n "$missing" ] || return 0
  mkdir -p "$SDK_LOGS"
  sdk_log "installing pinned packages: $(printf '%s\n' "$missing" | awk '{ sub(/=.*/, "", $2); print $2 }' | paste -sd' ') (log: $log)"
  local apt=(sdk_in_root "$root" apt-get -o Acquire::Check-Valid-Until=false -o Dpkg::Use-Pty=0)
  "${apt[@]}" update >> "$log" 2>&1 || sdk_die "apt-get update failed in the root; see $log"
  while read -r suite pkg; do
    "${apt[@]}" install -y --no-install-recommends -t "$suite" "$pkg" < /dev/null >> "$log" 2>&1 ||
      sdk_die "could not install $pkg from $suite in the root; see $log"
  done <<< "$missing"
  "${apt[@]}" clean >> "$log" 2>&1 || true
}

# The host's Debian mirror (never the repository's): the first archive URI in
# its apt configuration that is not a security mirror.
sdk_host_mirror() {
  if [ -n "${ETHOSU_SDK_APT_MIRROR:-}" ]; then
    printf '%s\n' "$ETHOSU_SDK_APT_MIRROR"; return
  fi
  {
    grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
      awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break }}'
    grep -hsE '^[[:space:]]*URIs:' /etc/apt/sources.list.d/*.sources | awk '{for (i = 2; i <= NF; i++) print $i}'
  } | grep -vE 'security' | grep -E '/debian/?$' | head -n 1
}

# The SDK's QEMU (qemu/) is keyed by everything it is built from, so editing
# the device gives a new binary path (Bazel reruns what uses it) while the
# build directory, keyed by QEMU's version, makes the rebuild incremental.
sdk_qemu_inputs() {
  local workspace="$1"
  (cd "$workspace" && {
    find qemu/hw qemu/configs qemu/patches -type f | LC_ALL=C sort
    printf '%s\n' sim/device/device_abi.h tools/bootstrap/build_qemu.sh \
      tools/bootstrap/qemu-source.sha256 tools/bootstrap/root-packages.txt
  })
}
sdk_qemu_key() {
  local workspace="$1"
  sdk_qemu_inputs "$workspace" | (cd "$workspace" && xargs sha256sum) | sha256sum | cut -c1-16
}
# The binary's path as Bazel sees it: inside the root, or in the cache when
# a host Bazel is used (any argument).
sdk_qemu_bin() {
  local workspace="$1" host_mode="${2:-}"
  local base="$SDK_ROOT_OPT"
  [ -z "$host_mode" ] || base="$SDK_CACHE"
  printf '%s/qemu-%s/bin/qemu-system-arm' "$base" "$(sdk_qemu_key "$workspace")"
}
