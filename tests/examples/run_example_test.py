"""Runs an example (an ethosu_run launcher named by $EXAMPLE) as `bazel run`
would, and expects PASS against its reference and a written report."""

from __future__ import annotations

import os
import re
import subprocess


def test_example_passes_and_writes_a_report() -> None:
    result = subprocess.run([os.environ["EXAMPLE"]], capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert re.search(r"^      PASS: every output matches the reference", result.stdout, re.MULTILINE)
    page = re.search(r"^Report: (.*)$", result.stdout, re.MULTILINE).group(1)
    assert os.path.getsize(page) > 0
