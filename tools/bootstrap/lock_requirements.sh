#!/usr/bin/env bash
# Regenerates python/requirements.lock from python/requirements.in: resolves
# in a scratch venv, then pins every installed distribution with the sha256 of
# the exact file pip chose on this machine kind.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/common.sh"
py_dir="$(cd "$here/../../python" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$SDK_HOST_PYTHON" -m venv "$scratch/venv"
"$scratch/venv/bin/pip" install -q -r "$py_dir/requirements.in"
# --all: torch needs a newer setuptools than the venv ships; pip itself stays.
"$scratch/venv/bin/pip" freeze --all --exclude-editable | grep -v "^pip==" > "$scratch/frozen.txt"
"$scratch/venv/bin/pip" download -q --no-deps -r "$scratch/frozen.txt" -d "$scratch/files"
"$scratch/venv/bin/python" "$here/write_lock.py" "$scratch/frozen.txt" "$scratch/files" > "$py_dir/requirements.lock"
sdk_log "wrote $py_dir/requirements.lock"
