"""user_function.load: each form an option may name a function in, and one
error line for each way a reference can be wrong."""

from __future__ import annotations

import pathlib

import pytest

from ethosu_sdk.aot import user_function
from ethosu_sdk.aot.errors import AotError, CalibrationError


def test_a_module_function() -> None:
    import os.path

    assert user_function.load("os.path:join", "option", AotError) is os.path.join


def test_an_attribute_path_after_the_colon() -> None:
    assert user_function.load("pathlib:Path.cwd", "option", AotError)() == pathlib.Path.cwd()


def test_a_file_with_a_colon_in_its_directory(tmp_path: pathlib.Path) -> None:
    directory = tmp_path / "a:b"
    directory.mkdir()
    (directory / "prep.py").write_text("def double(x):\n    return 2 * x\n")
    assert user_function.load(f"{directory / 'prep.py'}:double", "option", AotError)(21) == 42


@pytest.mark.parametrize(
    "reference, message",
    [
        ("no_colon", r"^my option 'no_colon': give module:function or FILE.py:function$"),
        (":f", "give module:function"),
        ("math:", "give module:function"),
        ("no_such_module_here:f", "cannot load no_such_module_here \\(ModuleNotFoundError: .*model_deps$"),
        ("/no/such/file.py:f", "cannot load /no/such/file.py \\(FileNotFoundError: "),
        ("math:no_such", "math has no 'no_such'$"),
        ("math:pi", "pi is not a function$"),
    ],
)
def test_a_wrong_reference_is_one_error_line(reference: str, message: str) -> None:
    with pytest.raises(CalibrationError, match=message) as raised:
        user_function.load(reference, "my option", CalibrationError)
    assert "\n" not in str(raised.value)


def test_a_module_that_raises_on_import_is_one_error_line(tmp_path: pathlib.Path) -> None:
    (tmp_path / "bad.py").write_text("raise RuntimeError('first\\nsecond')\n")
    with pytest.raises(AotError, match=r"cannot load .*bad.py \(RuntimeError: first\)") as raised:
        user_function.load(f"{tmp_path / 'bad.py'}:f", "option", AotError)
    assert "\n" not in str(raised.value)
