"""Every operator the installed executorch.runtime registers is implemented
(operators.yaml) or listed with a reason (refused.yaml), and COVERAGE.md is
the table generated from them."""

from __future__ import annotations

import os

import coverage
import operator_table
import pytest
import refused_table

PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(coverage.__file__))), "COVERAGE.md")


def test_every_installed_operator_is_implemented_or_listed_with_a_reason() -> None:
    implemented = {op.name for op in operator_table.load()}
    listed = refused_table.load()
    missing = sorted(coverage.installed_operators() - implemented - set(listed))
    assert not missing, f"add a kernel (operators.yaml) or a reason (refused.yaml) for: {missing}"


def test_no_operator_is_both_implemented_and_refused() -> None:
    implemented = {op.name for op in operator_table.load()}
    assert not implemented & set(refused_table.load())


def test_the_page_is_current() -> None:
    with open(PAGE) as f:
        assert f.read() == coverage.current_page(), (
            "regenerate: tools/bazel run //cc/kernels:coverage -- --out=$PWD/cc/kernels/COVERAGE.md"
        )


def test_an_entry_without_a_reason_is_an_error(tmp_path) -> None:
    table = tmp_path / "refused.yaml"
    table.write_text("- op: aten::rand.out\n  status: refused\n")
    with pytest.raises(operator_table.TableError, match="reason"):
        refused_table.load(str(table))


def test_a_missing_operator_shows_in_the_page() -> None:
    text = coverage.page({"aten::new_op.out", "aten::add.out"}, {"aten::add.out"}, {})
    assert "| `aten::new_op.out` | missing |" in text
    assert "1 implemented here, 0 refused (with the reason), 0 pending, 1 missing" in text
