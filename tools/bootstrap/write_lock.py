"""Prints a pip --require-hashes lock file: one pin per frozen requirement,
hashed from the distribution file that `pip download` fetched for it."""
import hashlib
import pathlib
import sys

from packaging.utils import (canonicalize_name, parse_sdist_filename,
                             parse_wheel_filename)


def main(frozen: str, files_dir: str) -> None:
    files = {}
    for path in sorted(pathlib.Path(files_dir).iterdir()):
        if path.name.endswith(".whl"):
            name = parse_wheel_filename(path.name)[0]
        else:
            name = parse_sdist_filename(path.name)[0]
        files[canonicalize_name(name)] = path
    print("# Generated from requirements.in: every package of the SDK's venv, pinned,")
    print("# with the sha256 of the file this machine kind installs (CPython 3.11,")
    print("# Linux x86_64). Installed with pip --require-hashes by tools/bootstrap.")
    print("# Regenerate: tools/bootstrap/lock_requirements.sh")
    for line in pathlib.Path(frozen).read_text().splitlines():
        pin = line.strip()
        if not pin or pin.startswith("#"):
            continue
        name = canonicalize_name(pin.split("==")[0])
        digest = hashlib.sha256(files[name].read_bytes()).hexdigest()
        print(f"{pin} \\\n    --hash=sha256:{digest}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
