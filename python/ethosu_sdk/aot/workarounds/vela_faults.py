"""The Vela faults the SDK works around, and the Vela versions each is for.

Every workaround of a Vela fault (vela_workarounds.py, vela_conv3d_crop.py,
vela_refusals.py) asks `applies(FAULT)` before it changes a graph. A fault
applies from the version it was found in up to, not including, the first
version known to be without it; `fixed_in` stays None while every version
tried still has it, so a newer Vela keeps the workaround until a test shows
the fault gone. Each fault's `evidence` is a test that lowers its pattern
without the workaround on the installed Vela and requires the fault exactly
when `applies` says so; the versions checked are in bench/RESULTS.md
(issue 49).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.metadata
import re
from typing import Optional

Version = tuple[int, ...]


def parse(version: str) -> Version:
    """'5.2.0' -> (5, 2, 0); numbers after a pre-release or local suffix are ignored."""
    numbers = []
    for part in re.split(r"[.+]", version):
        match = re.match(r"\d+", part)
        if not match:
            break
        numbers.append(int(match.group()))
        if match.end() != len(part):
            break
    return tuple(numbers)


@dataclasses.dataclass(frozen=True)
class VelaFault:
    name: str  # as the summary's vela_workarounds name it
    found_in: str  # the first Vela version it was seen in
    fixed_in: Optional[str]  # the first version known without it; None: every version tried has it
    evidence: str  # the test that shows the fault, or its absence, on the installed Vela

    def applies_to(self, version: str) -> bool:
        installed = parse(version)
        if installed < parse(self.found_in):
            return False
        return self.fixed_in is None or installed < parse(self.fixed_in)


UNBIND_MATMUL = VelaFault(
    name="vela_5.1.0_unbind_matmul",
    found_in="5.1.0",
    fixed_in=None,
    evidence="//tests/aot:vela_faults_installed_test (transformer_block), //sim/tests/npu:u85_vela_unbind_matmul_test",
)
LINEAR_CLAMP = VelaFault(
    name="after_reshape",  # the lowering workaround summary's key for it
    found_in="5.1.0",
    fixed_in="5.2.0",
    evidence="//tests/lowering:sweep_u85_int8_test (patterns:linear_relu_cat)",
)
LOST_OUTPUT = VelaFault(
    name="vela_5.1.0_lost_transposed_output",
    found_in="5.1.0",
    fixed_in=None,
    evidence="//tests/aot:vela_workarounds_test (the detector of tests/kernels on the U55)",
)
CONV3D_SLICE = VelaFault(
    name="vela_5.1.0_conv3d_sliced_ifm",
    found_in="5.1.0",
    fixed_in=None,
    evidence="//tests/aot:vela_faults_installed_test (aot_test_models:conv3d_cropped)",
)
FAULTS = (UNBIND_MATMUL, LINEAR_CLAMP, LOST_OUTPUT, CONV3D_SLICE)


@functools.lru_cache(maxsize=None)
def installed_version() -> str:
    """The ethos-u-vela version this interpreter imports."""
    return importlib.metadata.version("ethos-u-vela")


def applies(fault: VelaFault) -> bool:
    """True when the installed Vela is one the fault is for."""
    return fault.applies_to(installed_version())
