"""Models that make a skip reason as built (skip_models.py, built with
verify = "warn"): the verification report names the reason, the line a
build with verify = "fail" stops on."""

from __future__ import annotations

import json
import re

# (ethosu_model target, the reason its partitions are skipped)
CASES = [
    # The cond's branches are delegates the program calls from inside the
    # cond: the top-level graph makes fewer delegate calls than Vela made
    # partitions, so the delegates' inputs are unknown.
    ("cond_branches_u55", r"the program has \d+ delegate calls for \d+ Vela partitions: inputs unknown"),
]


def test_each_report_names_its_reason() -> None:
    for target, reason in CASES:
        with open(f"tests/verify/{target}.verification.json") as f:
            report = json.load(f)
        assert report["mode"] == "warn"
        lines = report["unverified"]
        assert lines, f"{target}: nothing skipped ({report['status']}): {report['summary']}"
        assert all(re.fullmatch(r"partition \d+ was not verified: " + reason, line) for line in lines), lines
        assert report["summary"].startswith("verification FAILED: partition "), report["summary"]
        assert report["summary"].endswith('set verify = "warn" to build it unverified'), report["summary"]
