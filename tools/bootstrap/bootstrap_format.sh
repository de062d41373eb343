#!/usr/bin/env bash
# Installs the formatters and linters of tools/format (clang-format, ruff,
# mypy from tools/format/requirements.lock; buildifier from its npm package,
# checked against tools/format/buildifier.pin) and prints their directory.
#
# The directory sits under the Bazel cache because that is mounted inside the
# offline build root, where `tools/bazel run //tools:format` runs. It is keyed
# by the lock and the pin, so a change installs next to the old set. Idempotent.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$here/common.sh"

format_dir="$(cd "$here/../format" && pwd)"
lock="$format_dir/requirements.lock"
pin="$format_dir/buildifier.pin"
key="$(cat "$lock" "$pin" | sha256sum | cut -c1-16)"
dir="$SDK_BAZEL_CACHE/format-$key"

pin_field() { awk -v k="$1" '$1 == k { print $2 }' "$pin"; }

if [ ! -f "$dir/.ethosu-sdk-complete" ]; then
  [ -n "$SDK_HOST_PYTHON" ] || sdk_die "no python3 on PATH for the format tools (set ETHOSU_SDK_HOST_PYTHON)"
  command -v npm > /dev/null || sdk_die "npm is needed once to fetch buildifier (apt-get install npm)"
  mkdir -p "$SDK_LOGS"
  log="$SDK_LOGS/format-tools.log"
  rm -rf "$dir"
  mkdir -p "$dir"
  sdk_log "installing the format tools (clang-format, ruff, mypy, buildifier; log: $log)"
  "$SDK_HOST_PYTHON" -m venv "$dir/venv" > "$log" 2>&1
  "$dir/venv/bin/pip" install --disable-pip-version-check --no-input --require-hashes -r "$lock" \
      >> "$log" 2>&1 || sdk_die "pip install from tools/format/requirements.lock failed; see $log"
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  (cd "$scratch" && npm pack --silent "@bazel/buildifier@$(pin_field version)") >> "$log" 2>&1 ||
    sdk_die "npm pack @bazel/buildifier failed; see $log"
  tarball="$(ls "$scratch"/*.tgz)"
  echo "$(pin_field tarball_sha256)  $tarball" | sha256sum -c --quiet - >> "$log" 2>&1 ||
    sdk_die "buildifier's npm tarball does not match tools/format/buildifier.pin"
  tar xzf "$tarball" -C "$scratch" package/buildifier-linux_amd64
  echo "$(pin_field binary_sha256)  $scratch/package/buildifier-linux_amd64" | sha256sum -c --quiet - >> "$log" 2>&1 ||
    sdk_die "buildifier's binary does not match tools/format/buildifier.pin"
  install -m 0755 "$scratch/package/buildifier-linux_amd64" "$dir/buildifier"
  # One name per tool, whatever the wheel calls its binary.
  ln -sf "$(find "$dir/venv" -path '*clang_format/data/bin/clang-format' | head -n 1)" "$dir/clang-format"
  ln -sf venv/bin/ruff "$dir/ruff"
  ln -sf venv/bin/mypy "$dir/mypy"
  touch "$dir/.ethosu-sdk-complete"
fi
printf '%s\n' "$dir"
