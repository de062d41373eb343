"""Verifies a compiled model's Ethos-U delegates against the TOSA reference
model (python/ethosu_sdk/verify): ethosu_model's verification action.

    verify_model --pte=M.pte --verify_dir=M.verify --npu_run=PATH \
        --mode=fail --report_json=M.verification.json

The first line names the first differing layer by its PyTorch module path and
source line; the per-layer table follows. Exit status 1 on a difference with
--mode=fail, 2 when the verification could not run.
"""

from __future__ import annotations

import ctypes
import sys

from absl import app, flags

from ethosu_sdk.cli.held_back import held_back_output
from ethosu_sdk.verify import verify

FLAGS = flags.FLAGS
flags.DEFINE_string("pte", None, "The compiled program (.pte).")
flags.DEFINE_string("verify_dir", None, "The AOT step's verification inputs (aot_compile --verify_dir).")
flags.DEFINE_string("npu_run", None, "The NPU model binary (//sim/host:npu_run).")
flags.DEFINE_enum("mode", "fail", list(verify.MODES), "fail: exit 1 on a difference; warn: report it, exit 0.")
flags.DEFINE_string("report_json", None, "Write the per-layer table as JSON here.")
flags.DEFINE_bool(
    "quiet",
    False,
    "Print nothing when everything is bit-exact (the JSON report has the table); "
    "hold back the reference model's own messages (build actions).",
)
flags.DEFINE_integer("inject", None, "Tests only: plant a one-step fault in NPU operation N (npu_run --inject).")
flags.mark_flags_as_required(["pte", "verify_dir", "npu_run"])


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {' '.join(argv[1:])}")
    try:
        if FLAGS.quiet:
            with held_back_output():
                code, text, exact = _run()
                # The reference model's C++ writes through stdio: flush it while held back.
                ctypes.CDLL(None).fflush(None)
        else:
            code, text, exact = _run()
    except (verify.VerifyError, OSError, ValueError, RuntimeError) as e:
        print(f"verification error: {e}", file=sys.stderr)
        return 2
    if not (exact and FLAGS.quiet):
        print(text, flush=True)
    return code


def _run() -> tuple[int, str, bool]:
    return verify.run(FLAGS.pte, FLAGS.verify_dir, FLAGS.npu_run, FLAGS.mode, FLAGS.report_json, FLAGS.inject)


if __name__ == "__main__":
    app.run(main)
