"""Prints a pip --require-hashes lock file: one pin per frozen requirement,
hashed from the distribution file that `pip download` fetched for it."""

import hashlib
import pathlib
import sys

from packaging.utils import canonicalize_name, parse_sdist_filename, parse_wheel_filename


def main(
    frozen: str,
    files_dir: str,
    source: str = "requirements.in",
    venv: str = "the SDK's venv",
    python: str = "CPython 3.11",
    installer: str = "tools/bootstrap",
    regenerate: str = "tools/bootstrap/lock_requirements.sh",
) -> None:
    files = {}
    for path in sorted(pathlib.Path(files_dir).iterdir()):
        if path.name.endswith(".whl"):
            name = parse_wheel_filename(path.name)[0]
        else:
            name = parse_sdist_filename(path.name)[0]
        files[canonicalize_name(name)] = path
    print(f"# Generated from {source}: every package of {venv}, pinned,")
    print(f"# with the sha256 of the file this machine kind installs ({python},")
    print(f"# Linux x86_64). Installed with pip --require-hashes by {installer}.")
    print(f"# Regenerate: {regenerate}")
    for line in pathlib.Path(frozen).read_text().splitlines():
        pin = line.strip()
        if not pin or pin.startswith("#"):
            continue
        name = canonicalize_name(pin.split("==")[0])
        digest = hashlib.sha256(files[name].read_bytes()).hexdigest()
        print(f"{pin} \\\n    --hash=sha256:{digest}")


if __name__ == "__main__":
    main(*sys.argv[1:])
