"""The stratified list: per test file of ExecuTorch's cortex_m suite, its
first case in name order that neither ExecuTorch (xfail) nor known.py
expects to fail."""

from __future__ import annotations

import re

import collect
from known import KNOWN_FAILURES


def target_name(case: collect.Case) -> str:
    """A Bazel target name for `case`: `add_tensor_scalar`."""
    stem = case.file.removeprefix("test_")
    return re.sub(r"[^A-Za-z0-9_]+", "_", f"{stem}_{case.case_id}").strip("_").lower()


def stratified(cases: list[collect.Case]) -> list[collect.Case]:
    first: dict[str, collect.Case] = {}
    for case in sorted(cases, key=lambda c: c.name):
        if case.xfail is None and case.name not in KNOWN_FAILURES:
            first.setdefault(case.file, case)
    return sorted(first.values(), key=lambda c: c.name)
