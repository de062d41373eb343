#!/usr/bin/env bash
# Creates the SDK's Python environment from python/requirements.lock (pinned,
# hashed) and prints its directory. Idempotent: an existing, complete venv for
# the same lock file is reused; an interrupted one is rebuilt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$here/common.sh"

lock="$(cd "$here/../.." && pwd)/python/requirements.lock"
[ -f "$lock" ] || sdk_die "missing $lock"
venv="$(sdk_venv_dir "$lock")"

if [ ! -f "$venv/.ethosu-sdk-complete" ]; then
  [ -n "$SDK_HOST_PYTHON" ] || sdk_die "no python3 on PATH to build the venv from (set ETHOSU_SDK_HOST_PYTHON)"
  "$SDK_HOST_PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' ||
    sdk_die "$SDK_HOST_PYTHON is not CPython 3.11, which the lock file is made for (set ETHOSU_SDK_HOST_PYTHON)"
  mkdir -p "$SDK_LOGS"
  rm -rf "$venv"
  sdk_log "creating the Python environment (torch, executorch, vela; a few minutes; log: $SDK_LOGS/venv.log)"
  "$SDK_HOST_PYTHON" -m venv "$venv" > "$SDK_LOGS/venv.log" 2>&1
  "$venv/bin/pip" install --disable-pip-version-check --no-input --require-hashes -r "$lock" \
      >> "$SDK_LOGS/venv.log" 2>&1 ||
    sdk_die "pip install from python/requirements.lock failed; see $SDK_LOGS/venv.log"
  "$venv/bin/pip" check >> "$SDK_LOGS/venv.log" 2>&1 ||
    sdk_die "the Python environment is inconsistent (pip check); see $SDK_LOGS/venv.log"
  touch "$venv/.ethosu-sdk-complete"
fi
printf '%s\n' "$venv"
