"""The collector against the installed wheel: it finds ExecuTorch's cortex_m
cases with their xfails, and sample.bzl is still its stratified list."""

from __future__ import annotations

import ast
import os

import collect
import stratify


def _sample() -> list[tuple[str, str]]:
    text = open(os.path.join(os.path.dirname(__file__), "sample.bzl")).read()
    return ast.literal_eval(text[text.index("[", text.index("SAMPLE = ")) :])


def test_every_ops_file_has_cases_and_xfails_are_kept() -> None:
    errors: list[str] = []
    cases = collect.collect(errors)
    ops_files = {c.file for c in cases if c.package == "ops"}
    # The pinned wheel's ops/ tests: 24 files, 18 with implementation cases.
    assert len(ops_files) >= 18, sorted(ops_files)
    assert len(cases) >= 200, len(cases)
    assert any(c.xfail and "Broadcasting" in c.xfail for c in cases)
    for case in cases:
        assert isinstance(case.module, object) and case.inputs, case.name


def test_sample_is_the_stratified_list() -> None:
    expected = [(stratify.target_name(c), c.name) for c in stratify.stratified(collect.collect())]
    assert _sample() == expected
