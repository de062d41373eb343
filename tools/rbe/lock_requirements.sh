#!/usr/bin/env bash
# Regenerates tools/rbe/requirements.lock from tools/rbe/requirements.in: the
# host's pip resolves and downloads wheels for the build root's CPython
# (BuildGrid needs >= 3.13), and every file it chose is pinned with its sha256.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bootstrap="$here/../bootstrap"
# shellcheck source=../bootstrap/common.sh
source "$bootstrap/common.sh"
[ -x "$SDK_ROOT/usr/bin/python3" ] || sdk_die "no build root at $SDK_ROOT yet: run tools/bazel version first"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
py="$(sdk_in_root "$SDK_ROOT" python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
platforms=()
for tag in manylinux_2_17 manylinux2014 manylinux_2_28 manylinux_2_34; do platforms+=(--platform "${tag}_x86_64"); done
"$SDK_HOST_PYTHON" -m pip download -q --only-binary=:all: --python-version "$py" --implementation cp \
  "${platforms[@]}" -r "$here/requirements.in" -d "$scratch/files"
# The SDK's venv has `packaging` for write_lock.py.
python="$("$bootstrap/bootstrap_venv.sh")/bin/python3"
"$python" -c 'import pathlib, sys
from packaging.utils import parse_wheel_filename
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.whl")):
    name, version = parse_wheel_filename(path.name)[:2]
    print(f"{name}=={version}")' "$scratch/files" > "$scratch/frozen.txt"
"$python" "$bootstrap/write_lock.py" "$scratch/frozen.txt" "$scratch/files" requirements.in "the BuildGrid venv" \
  "CPython $py of the build root" tools/rbe/loopback.sh tools/rbe/lock_requirements.sh > "$here/requirements.lock"
sdk_log "wrote $here/requirements.lock"
