"""The committed Bazel views of the AOT vocabulary are what bzl_views.py
generates from the Python now: a field added to CompileOptions (or a target
to targets.py) without regenerating fails here, naming the command."""

import pytest

from ethosu_sdk.aot import bzl_views


@pytest.mark.parametrize("path", sorted(bzl_views.VIEWS))
def test_committed_view_is_generated(path: str) -> None:
    with open(path) as f:
        committed = f.read()
    assert committed == bzl_views.VIEWS[path](), (
        f"{path} is out of date: run tools/bazel run //python/ethosu_sdk/aot:gen_bzl"
    )


def test_every_rule_option_has_an_attribute_and_an_unset_value() -> None:
    text = bzl_views.model_options_bzl()
    for field, spec in bzl_views.options.option_fields():
        assert (f'    "{field.name}": attr.' in text) == spec.rule, field.name
