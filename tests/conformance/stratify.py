"""The conformance suite's stratification (make_sample.py, and
//bench/conformance --stratified): one case per (operator file, NPU,
quantization: the SDK's mode and options, collect.Case.quantization), the
first in name order that neither ExecuTorch (xfail) nor the SDK (known.py)
expects to fail and whose quantization the SDK can express."""

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
    return (
        case.xfail is None
        and case.unexpressible is None
        and known.known_failure(case.name, case.npu) is None
        and case.name not in EXCLUDED
    )


def stratified(cases: list[collect.Case]) -> list[collect.Case]:
    """One case per (file, NPU, quantization), first in name order."""
    chosen: dict[tuple[str, str, str], collect.Case] = {}
    for case in sorted(cases, key=lambda c: (c.file, c.npu, c.quantization, c.name)):
        key = (case.file, case.npu, case.quantization)
        if key not in chosen and expected_to_pass(case):
            chosen[key] = case
    return [chosen[k] for k in sorted(chosen)]


def stratum(case: collect.Case, count: int) -> int:
    """Which of `count` strata the case's (file, NPU, quantization) key falls
    in: a stable hash (Python's hash() is salted per process). A case of the
    SDK's default options keys as `int8` or `a16w8`, as before the options
    existed, so its stratum is unchanged."""
    key = f"{case.file}/{case.npu}/{case.quantization}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "little") % count
