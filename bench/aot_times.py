"""Benchmark: AOT time per model and target, one aot_compile process each.

Reports the flow's own step timings (export, quantize, lower, total inside
the process) and the wall time of the whole process (Python start-up and
imports included), as a Markdown table on stdout.

  tools/bazel run //bench:aot_times -- --models=mlp_softmax --targets=cpu
  tools/bazel run //bench:aot_times -- --host_numerics=native   # the host's own paths
  tools/bazel run //bench:aot_times -- --provenance=copied      # torch's FX provenance copies
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_list(
    "models", ["mobilenet_v2", "kws_dscnn", "resnet_blocks", "mlp_softmax", "transformer_block"], "Zoo models."
)
flags.DEFINE_list("targets", ["ethos-u55-128", "ethos-u85-256", "TOSA-1.0+INT", "cpu"], "Targets.")
flags.DEFINE_string("compiler", None, "Path of the aot_compile binary (default: from runfiles).")
flags.DEFINE_enum(
    "host_numerics",
    "pinned",
    ["pinned", "native"],
    "pinned: the SDK's default, the same bytes on every host; native: the host's own code paths "
    "(ETHOSU_SDK_HOST_NUMERICS=native), to measure what the pinning costs.",
)

flags.DEFINE_enum(
    "provenance",
    "shared",
    ["shared", "copied"],
    "shared: the SDK's default (workarounds/torch_provenance.py); copied: torch's own deep copies of "
    "FX provenance (ETHOSU_SDK_TORCH_PROVENANCE=copied), to measure what sharing saves.",
)


def _compiler() -> list[str]:
    if FLAGS.compiler:
        return [FLAGS.compiler]
    here = os.path.dirname(os.path.abspath(__file__))
    runfiles = os.environ.get("RUNFILES_DIR") or os.path.abspath(sys.argv[0]) + ".runfiles"
    for candidate in (
        os.path.join(runfiles, "_main/python/ethosu_sdk/cli/aot_compile"),
        os.path.join(here, "../python/ethosu_sdk/cli/aot_compile"),
    ):
        if os.path.exists(candidate):
            return [candidate]
    raise app.UsageError("cannot find aot_compile; pass --compiler")


def main(argv: list[str]) -> None:
    del argv
    compiler = _compiler()
    env = dict(os.environ)
    if FLAGS.host_numerics == "native":
        env["ETHOSU_SDK_HOST_NUMERICS"] = "native"
    if FLAGS.provenance == "copied":
        env["ETHOSU_SDK_TORCH_PROVENANCE"] = "copied"
    print(
        "| model | target | export s | quantize s | lower s | total s (in process) | wall s (process) "
        "| .pte bytes | .pte sha256 |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for model in FLAGS.models:
            for target in FLAGS.targets:
                out = os.path.join(work, f"{model}_{target}.pte")
                timings = os.path.join(work, "timings.json")
                started = time.monotonic()
                proc = subprocess.run(
                    [
                        *compiler,
                        f"--model={model}",
                        f"--target={target}",
                        f"--output={out}",
                        f"--timings_json={timings}",
                        "--quiet",
                    ],
                    capture_output=True,
                    text=True,
                    env=env,
                )
                wall = time.monotonic() - started
                if proc.returncode != 0:
                    print(f"| {model} | {target} | failed: {proc.stderr.strip().splitlines()[-1:]} ||||||")
                    continue
                with open(timings) as f:
                    t = json.load(f)
                print(
                    f"| {model} | {target} | {t['export']:.1f} | {t['quantize']:.1f} | {t['lower']:.1f} | "
                    f"{t['total']:.1f} | {wall:.1f} | {os.path.getsize(out)} | {_digest(out)} |",
                    flush=True,
                )


def _digest(path: str) -> str:
    """The first 16 hex digits of the file's SHA-256: equal bytes, equal digest."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


if __name__ == "__main__":
    app.run(main)
