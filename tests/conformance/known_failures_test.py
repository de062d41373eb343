"""The SDK's known conformance failures (known.py) still fail for their
known cause: each case's build-time verification (ethosu_model with
verify = "warn") reports the NPU feature the functional model lacks, that
it skipped the partition, or the known ExecuTorch fault its lowering
check found (python/ethosu_sdk/verify/executorch_faults.py). When a
fix makes one verify, this test fails: move the case to the sample and
drop its entry from known.py and expected.bzl."""

from __future__ import annotations

import json
import os
import re

import pytest

PACKAGE = "tests/conformance"


def _expectations() -> list[tuple[str, str]]:
    """(target, regex of the cause) from the BUILD file (cases.bzl)."""
    return sorted(json.loads(os.environ.get("CONFORMANCE_EXPECT", "{}")).items())


@pytest.mark.parametrize("target,regex", _expectations())
def test_still_not_modelled(target: str, regex: str) -> None:
    with open(os.path.join(PACKAGE, target + ".verification.json")) as f:
        report = json.load(f)
    # Not modelled (a build failure by default), or still skipped: a
    # partition the verification cannot take at all (e.g. a bool input); or
    # a failure of the check itself, e.g. the lowering check naming a known
    # ExecuTorch fault.
    lines = (
        report.get("not_modelled")
        or [p["skipped"] for p in report.get("partitions", []) if p.get("skipped")]
        or ([report["summary"]] if report.get("status") == "fail" else [])
    )
    assert lines, f"{target} now verifies ({report.get('status')}): a fix landed; move it to the sample"
    assert any(re.search(regex, line) for line in lines), f"{target}: unexpected cause {lines}"
