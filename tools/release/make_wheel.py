"""Writes a pure-Python wheel (PEP 427) reproducibly: sorted entries, fixed
timestamps, RECORD with every file's digest. (rules_python's py_wheel needs a
tool that Debian's packaged rules_python does not ship.)"""

from __future__ import annotations

import base64
import hashlib
import zipfile

from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("out", None, "Output .whl.", required=True)
flags.DEFINE_string("distribution", None, "Distribution name.", required=True)
flags.DEFINE_string("version", None, "Version.", required=True)
flags.DEFINE_string("summary", "", "One-line summary.")
flags.DEFINE_string("requires_python", ">=3.11", "Requires-Python.")
flags.DEFINE_multi_string("requires", [], "Requires-Dist entries.")
flags.DEFINE_multi_string("console_script", [], "NAME=module:function.")
flags.DEFINE_multi_string("file", [], "PATH_IN_WHEEL=SRC (repeatable).")

_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can carry


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main(argv: list[str]) -> None:
    del argv
    dist_info = f"{FLAGS.distribution}-{FLAGS.version}.dist-info"
    files: dict[str, bytes] = {}
    for spec in FLAGS.file:
        dest, src = spec.split("=", 1)
        with open(src, "rb") as f:
            files[dest] = f.read()
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {FLAGS.distribution}",
        f"Version: {FLAGS.version}",
        f"Summary: {FLAGS.summary}",
        f"Requires-Python: {FLAGS.requires_python}",
    ] + [f"Requires-Dist: {r}" for r in FLAGS.requires]
    files[f"{dist_info}/METADATA"] = ("\n".join(metadata) + "\n").encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: ethosu_sdk make_wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    if FLAGS.console_script:
        scripts = "".join(f"{s.split('=', 1)[0]} = {s.split('=', 1)[1]}\n" for s in sorted(FLAGS.console_script))
        files[f"{dist_info}/entry_points.txt"] = ("[console_scripts]\n" + scripts).encode()
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in sorted(files.items()))
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    with zipfile.ZipFile(FLAGS.out, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, files[name])


if __name__ == "__main__":
    app.run(main)
