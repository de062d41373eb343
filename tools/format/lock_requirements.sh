#!/usr/bin/env bash
# Regenerates tools/format/requirements.lock from requirements.in, pinned with
# the sha256 of each file pip chose on this machine kind.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bootstrap="$here/../bootstrap"
source "$bootstrap/common.sh"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$SDK_HOST_PYTHON" -m venv "$scratch/venv"
"$scratch/venv/bin/pip" install -q packaging -r "$here/requirements.in"
"$scratch/venv/bin/pip" freeze --exclude-editable | grep -v -e "^pip==" -e "^packaging==" > "$scratch/frozen.txt"
"$scratch/venv/bin/pip" download -q --no-deps -r "$scratch/frozen.txt" -d "$scratch/files"
"$scratch/venv/bin/python" "$bootstrap/write_lock.py" "$scratch/frozen.txt" "$scratch/files" \
  requirements.in "the format tools' venv" "CPython 3.11" tools/bootstrap/bootstrap_format.sh \
  tools/format/lock_requirements.sh > "$here/requirements.lock"
sdk_log "wrote $here/requirements.lock"
