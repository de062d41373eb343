"""tiers_check fails when a package loses its last everyday test, and the
sampling helpers of tools/rules/tiers.bzl keep one entry of each case."""

from __future__ import annotations

import pathlib
from typing import Any

import tiers_check


def test_a_package_whose_tests_are_all_full_fails() -> None:
    tests = ["//tests/a:one", "//tests/a:two", "//tests/b:only", "//sim/tests/c:x"]
    everyday = ["//tests/a:one", "//sim/tests/c:x"]
    assert tiers_check.packages_without_everyday(tests, everyday) == ["//tests/b"]


def test_every_package_with_an_everyday_test_passes() -> None:
    tests = ["//tests/a:one", "//tests/a:two"]
    assert tiers_check.packages_without_everyday(tests, ["//tests/a:two"]) == []


def test_main_reads_label_files(tmp_path: pathlib.Path) -> None:
    (tmp_path / "all").write_text("//tests/a:one\n//tests/b:only\n")
    (tmp_path / "everyday").write_text("//tests/a:one\n")
    args = [f"--tests={tmp_path / 'all'}", f"--everyday={tmp_path / 'everyday'}"]
    assert tiers_check.main(args) == 1
    (tmp_path / "everyday").write_text("//tests/a:one\n//tests/b:only\n")
    assert tiers_check.main(args) == 0


def _tiers() -> dict[str, Any]:
    """tools/rules/tiers.bzl's functions: its Starlark is also Python."""
    source = pathlib.Path("tools/rules/tiers.bzl").read_text()
    scope: dict[str, Any] = {}
    exec(compile(source, "tiers.bzl", "exec"), scope)
    return scope


def test_one_of_each_keeps_every_case_once_rotating_the_variant() -> None:
    one_of_each = _tiers()["one_of_each"]
    entries = [(npu, case) for case in ["add", "mul", "sub"] for npu in ["u85", "u55"]] + [("u85", "gt")]
    split = dict(one_of_each(entries, 1))
    everyday = [entry for entry, full in split.items() if not full]
    assert everyday == [("u85", "add"), ("u55", "mul"), ("u85", "sub"), ("u85", "gt")]


def test_one_of_each_keeps_what_others_depend_on() -> None:
    one_of_each = _tiers()["one_of_each"]
    entries = [("u85", "add"), ("u55", "add")]
    assert dict(one_of_each(entries, 1, keep=[("u55", "add")])) == {("u85", "add"): False, ("u55", "add"): False}
    assert dict(one_of_each(entries, 1, keep=["add"])) == {("u85", "add"): False, ("u55", "add"): False}


def test_stratified_keeps_the_first_of_each_stratum() -> None:
    stratified = _tiers()["stratified"]
    entries = [("u85", "int8", "a"), ("u85", "int8", "b"), ("u55", "int8", "c"), ("u85", "a16w8", "d")]
    assert [full for _, full in stratified(entries, [0, 1])] == [False, True, False, False]
    assert [full for _, full in stratified(entries, [0, 1], 2)] == [False, False, False, False]


def test_tier_tags() -> None:
    tier_tags = _tiers()["tier_tags"]
    assert tier_tags(True, ["large"]) == ["large", "full"]
    assert tier_tags(False, ["large"]) == ["large"]
