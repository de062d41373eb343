"""Failures the SDK knows about (issue 34), by class: a case in one of
these is an expected failure of ours, reported beside ExecuTorch's own
xfail markers (collect.Case.xfail) so that "ExecuTorch fails too" stays
separate from "we fail". A fix removes its entry here."""

from __future__ import annotations

import re
from typing import Optional

# (class, NPU or None for any, pattern on the case name "file::function[id]")
KNOWN: list[tuple[str, Optional[str], re.Pattern[str]]] = [
    # Bool delegate inputs (torch.logical_*): the build-time verification
    # skips the partition ("a delegate input is not an integer tensor", in
    # the AOT flow's verify_data.py), which fails the build with verify =
    # "fail". The functional model runs the modes themselves bit-exact
    # (//sim/tests/npu:u85_logical_*).
    (
        "U85 bool delegate inputs not verified",
        "u85",
        re.compile(r"^test_logical::"),
    ),
    # sign, and le/lt against a scalar (Vela's CMP_GE/CMP_GT with the
    # operands swapped), compare against a scalar IFM (IFM_BROADCAST
    # SCALAR). Found failing before the scalar IFM was modelled (le.Scalar:
    # 7 of 20 elements +1); not re-run since.
    (
        "U85 scalar broadcast",
        "u85",
        re.compile(r"^test_sign::|^test_(le|lt)::test_(le|lt)_scalar"),
    ),
    # aten::gt/lt/where .out kernels the CPU runtime does not have yet.
    ("missing CPU kernel", "u55", re.compile(r"^test_sign::")),
    # Verifies on the host, but the QEMU device faults ("command stream
    # parse error", STATUS 0x00010012) on the bool-mask index_put (found by
    # the sample; the device's model and the host's disagree: to triage).
    ("U85 NPU fault on the device", "u85", re.compile(r"^test_index_put::")),
    # A16W8 exp: bit-exact against the TOSA reference model, but one of ten
    # elements two steps off PyTorch's quantized graph (Vela's 16-bit table
    # interpolation; found by the sample).
    ("A16W8 table lookup off PyTorch's reference", None, re.compile(r"^test_exp::.*(a16w8|16a8w)")),
    # cond's branches keep aten::sin/cos on the CPU: no kernels for them.
    ("missing CPU kernel", None, re.compile(r"^test_cond::")),
]


def known_failure(name: str, npu: str) -> Optional[str]:
    """The class of a case the SDK is known to fail, or None."""
    for cls, only_npu, pattern in KNOWN:
        if (only_npu is None or only_npu == npu) and pattern.search(name):
            return cls
    return None
