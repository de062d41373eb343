"""Writes a reproducible .tar.gz: entries sorted, times zero, owners root,
modes normalised, gzip without a name or time; plus a MANIFEST.sha256 inside
listing every other file's digest."""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import tarfile

from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("out", None, "Output .tar.gz.", required=True)
flags.DEFINE_string("prefix", None, "Top directory inside the archive.", required=True)
flags.DEFINE_multi_string("file", [], "DEST=SRC: put file SRC at PREFIX/DEST (repeatable).")


def _add(tar: tarfile.TarFile, name: str, data: bytes, executable: bool) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o755 if executable else 0o644
    tar.addfile(info, io.BytesIO(data))


def main(argv: list[str]) -> None:
    del argv
    entries: dict[str, tuple[bytes, bool]] = {}
    for spec in FLAGS.file:
        dest, src = spec.split("=", 1)
        if dest in entries:
            raise SystemExit(f"make_tarball: {dest} given twice")
        with open(src, "rb") as f:
            entries[dest] = (f.read(), os.access(src, os.X_OK) and not src.endswith((".a", ".h", ".whl")))
    manifest = "".join(f"{hashlib.sha256(data).hexdigest()}  {dest}\n" for dest, (data, _) in sorted(entries.items()))
    entries["MANIFEST.sha256"] = (manifest.encode(), False)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for dest in sorted(entries):
            data, executable = entries[dest]
            _add(tar, f"{FLAGS.prefix}/{dest}", data, executable)
    with open(FLAGS.out, "wb") as out:
        with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as gz:
            gz.write(buffer.getvalue())


if __name__ == "__main__":
    app.run(main)
