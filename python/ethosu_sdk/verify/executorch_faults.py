"""ExecuTorch lowerings known to land beyond the lowering check's tolerance
(lowering_check.py) of PyTorch's quantized graph, so that a build failing
on one names the cause instead of leaving the user to find it.

Naming a fault passes nothing: the build still fails (verify = "warn" to go
on), because the program still differs from the quantized graph the user
quantized. Each entry was found by ExecuTorch's own Ethos-U operator tests
run through the SDK (tests/conformance, bench/RESULTS.md "Conformance"),
which accept it within their own looser tolerance; the conformance suite
records the cases as known ExecuTorch faults (tests/conformance/known.py).
"""

from __future__ import annotations

import dataclasses
from typing import Optional


@dataclasses.dataclass(frozen=True)
class Fault:
    op: str  # the PyTorch operator (LoweredTensor.op, overload dropped)
    wide: bool  # with 16-bit activations (A16W8) only
    what: str  # what ExecuTorch does, and how far its own test lets it be


FAULTS = (
    Fault(
        "neg",
        True,
        "ExecuTorch 1.5.1 lowers a 16-bit neg to a TOSA NEGATE with no RESCALE, "
        "although the quantizer gives its input and output different scales (the result is off by their "
        "ratio; its test's default rtol 1e-3 accepts that); the SDK's lowering workarounds add the RESCALE",
    ),
    Fault(
        "bitwise_right_shift",
        False,
        "ExecuTorch 1.5.1 lowers a right shift for the Ethos-U55 to ARITHMETIC_RIGHT_SHIFT with round = True "
        "(the U55's SHR rounds), one above PyTorch's floor wherever the last bit shifted out is set (its test "
        "allows atol 1); the SDK's lowering workarounds floor it",
    ),
    Fault(
        "layer_norm",
        True,
        "ExecuTorch 1.5.1's 16-bit layer_norm decomposition (a reciprocal square root table) is this far "
        "off PyTorch by its own measure: its Ethos-U test allows 400 steps (test_layer_norm.py, qtol=400)",
    ),
    Fault(
        "rsqrt",
        True,
        "ExecuTorch 1.5.1 lowers a 16-bit rsqrt to one interpolated int16 TOSA TABLE, which is this far off "
        "PyTorch where rsqrt is steep (near zero); its Ethos-U test allows 128 steps (test_rsqrt.py, qtol=128)",
    ),
    Fault(
        "gelu",
        True,
        "ExecuTorch 1.5.1 lowers a 16-bit gelu to one interpolated int16 TOSA TABLE, which lands a few steps "
        "beyond the TABLE allowance where gelu bends; its Ethos-U test allows 128 steps (test_gelu.py, qtol=128)",
    ),
)


def known_fault(op: Optional[str], wide: bool) -> Optional[str]:
    """What ExecuTorch is known to do wrong for this operator and width, or None."""
    name = (op or "").split(".", 1)[0]
    return next((f.what for f in FAULTS if f.op == name and (wide or not f.wide)), None)
