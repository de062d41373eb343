"""Lists every pinned dependency of the SDK as JSON: Python packages (from
python/requirements.lock, with their sha256), Debian packages of the build
root (tools/bootstrap/root-packages.txt) and Bazel modules (MODULE.bazel)."""

from __future__ import annotations

import json
import re

from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("requirements", None, "python/requirements.lock", required=True)
flags.DEFINE_string("root_packages", None, "tools/bootstrap/root-packages.txt", required=True)
flags.DEFINE_string("module", None, "MODULE.bazel", required=True)
flags.DEFINE_string("version", None, "The SDK's version.", required=True)
flags.DEFINE_string("out", None, "Output JSON.", required=True)


def python_packages(text: str) -> list[dict[str, str]]:
    packages = []
    for match in re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+) \\\n\s+--hash=sha256:([0-9a-f]{64})", text, re.MULTILINE):
        packages.append({"name": match[1], "version": match[2], "sha256": match[3]})
    return packages


def debian_packages(text: str) -> list[dict[str, str]]:
    packages = []
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        name, _, version = fields[1].partition("=")
        packages.append({"suite": fields[0], "name": name, "version": version or "(suite's)"})
    return packages


def bazel_modules(text: str) -> list[dict[str, str]]:
    return [
        {"name": m[1], "version": m[2]} for m in re.finditer(r'bazel_dep\(name = "([^"]+)", version = "([^"]+)"', text)
    ]


def main(argv: list[str]) -> None:
    del argv

    def read(path: str) -> str:
        with open(path) as f:
            return f.read()

    sbom = {
        "sdk": {"name": "ethosu_sdk", "version": FLAGS.version},
        "python": sorted(python_packages(read(FLAGS.requirements)), key=lambda p: p["name"].lower()),
        "debian": debian_packages(read(FLAGS.root_packages)),
        "bazel_modules": bazel_modules(read(FLAGS.module)),
    }
    with open(FLAGS.out, "w") as f:
        json.dump(sbom, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    app.run(main)
