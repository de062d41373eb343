"""unit_test_failures on the host: each failed check prints its location,
values and message; an ASSERT ends its test; the run fails."""

from __future__ import annotations

import os
import subprocess


def _run() -> subprocess.CompletedProcess[str]:
    binary = os.environ["UNIT_TEST_FAILURES"]
    return subprocess.run([binary], capture_output=True, text=True, timeout=60, check=False)


def test_failures_fail_the_run() -> None:
    run = _run()
    assert run.returncode == 1
    assert run.stdout.splitlines()[-1] == "2 passed, 3 failed"


def test_each_failure_names_its_check_values_and_message() -> None:
    lines = _run().stdout.splitlines()
    expected_endings = [
        "unit_test_failures.cc:11: EXPECT_EQ(1 + 1, 3): 2 vs 3: sum of 1 and 1",
        'unit_test_failures.cc:12: EXPECT_STREQ("abc", "abd"): "abc" vs "abd"',
        "[  FAILED  ] Failing.ExpectGoesOn",
        "unit_test_failures.cc:17: ASSERT_LT(5, 4u): 5 vs 4: five is not less than four",
        "[  FAILED  ] Failing.AssertStops",
        "unit_test_failures.cc:23: FAIL(): why: -7",
        "[  FAILED  ] Failing.Explicit",
        "2 passed, 3 failed",
    ]
    assert len(lines) == len(expected_endings), lines
    for line, ending in zip(lines, expected_endings):
        assert line.endswith(ending), (line, ending)
