"""The conformance suite's stratification (make_sample.py, and
//bench/conformance --stratified): one case per (operator file, NPU,
quantization mode), the first in name order that neither ExecuTorch
(xfail) nor the SDK (known.py) expects to fail."""

from __future__ import annotations

import hashlib
import re

import collect
import known

# Cases the stratification must not pick (the CPU runtime or the intake
# cannot take them at all); each with why.
EXCLUDED: dict[str, str] = {}


def target_name(case: collect.Case) -> str:
    """A Bazel target name for a case: file, function and id, sanitized."""
    base = f"{case.function}_{case.case_id}".removeprefix("test_")
    return re.sub(r"[^A-Za-z0-9_]+", "_", base).strip("_").lower()[:120]


def expected_to_pass(case: collect.Case) -> bool:
    return case.xfail is None and known.known_failure(case.name, case.npu) is None and case.name not in EXCLUDED


def stratified(cases: list[collect.Case]) -> list[collect.Case]:
    """One case per (file, NPU, quantization mode), first in name order."""
    chosen: dict[tuple[str, str, str], collect.Case] = {}
    for case in sorted(cases, key=lambda c: (c.file, c.npu, c.quantize, c.name)):
        key = (case.file, case.npu, case.quantize)
        if key not in chosen and expected_to_pass(case):
            chosen[key] = case
    return [chosen[k] for k in sorted(chosen)]


def stratum(case: collect.Case, count: int) -> int:
    """Which of `count` strata the case's (file, NPU, mode) key falls in:
    a stable hash (Python's hash() is salted per process)."""
    key = f"{case.file}/{case.npu}/{case.quantize}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "little") % count
