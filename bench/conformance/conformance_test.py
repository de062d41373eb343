"""The bench reads why a case failed from Bazel's console (build_events.py)."""

from __future__ import annotations

import pathlib

import build_events

# What Bazel printed for a U85 while_loop case whose verification failed
# (shard 11 of 20, 2026-11-27), the sandbox paths shortened.
_CONSOLE = """\
ERROR: /w/bench/conformance/slice/BUILD.bazel:4:18: Verifying :while_loop_u85.pt2 against the TOSA \
reference model (//bench/conformance/slice:while_loop_u85) failed: (Exit 1): process-wrapper failed: \
error executing EthosuVerify command
  (cd /sandbox/execroot/_main && \\
  exec env - \\
    TMPDIR=/tmp \\
  /usr/share/bazel/process-wrapper '--timeout=0' bazel-out/bin/python/ethosu_sdk/cli/verify_model
verification FAILED: partition 0: the NPU program branches (WHILE_LOOP, from torch.ops.higher_order.while_loop)
partition 0: skipped: not verified: partition 0: the NPU program branches
[2,262 / 4,822] 7 / 174 tests; Compiling model :adaptive_avg_pool2d_u55.pt2
"""


def test_a_verification_failure_is_the_reason(tmp_path: pathlib.Path) -> None:
    console = tmp_path / "console.log"
    console.write_text(_CONSOLE)
    reasons = build_events.console_reasons(str(console), "bench/conformance/slice")
    assert reasons["while_loop_u85"].startswith("verification FAILED: partition 0: the NPU program branches")
