"""ethosu_model checks its target during analysis against a Starlark list;
that list must be exactly the targets aot_compile accepts."""

import ast
import re

from ethosu_sdk.aot import targets


def test_starlark_targets_equal_the_python_ones() -> None:
    with open("tools/rules/model.bzl") as f:
        text = f.read()
    listed = ast.literal_eval(re.search(r"^TARGETS = (\[.*?\])", text, re.MULTILINE | re.DOTALL)[1])
    assert listed == list(targets.ALL_TARGETS)
