"""A function of the user's, named in an option: `package.module:function`,
`module:object.function` (entry-point syntax: attributes after the colon)
or `path/to/file.py:function`. One loader for every option that names one
(calibration_preprocess, quantizer_setup), so each accepts the same forms
and fails with the same kind of line."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Callable

from ethosu_sdk.aot.errors import AotError, first_line

FORMS = "module:function or FILE.py:function"


def load(reference: str, option: str, error: type[AotError]) -> Callable[..., object]:
    """The function `reference` names; any failure is one `error` line that
    starts with `option` and the reference."""
    # Attribute paths hold no colon, a file path may: split at the last one.
    where, sep, path = reference.rpartition(":")
    if not sep or not where or not path:
        raise error(f"{option} {reference!r}: give {FORMS}")
    try:
        found: object = _module(where)
    except Exception as e:  # the user's module may raise anything on import
        raise error(
            f"{option} {reference!r}: cannot load {where} ({first_line(e)}); with a Bazel rule, "
            "add its py_library to model_deps"
        ) from e
    for name in path.split("."):
        found = getattr(found, name, None)
        if found is None:
            raise error(f"{option} {reference!r}: {where} has no {path!r}")
    if not callable(found):
        raise error(f"{option} {reference!r}: {path} is not a function")
    return found


def _module(where: str) -> object:
    if not where.endswith(".py"):
        return importlib.import_module(where)
    spec = importlib.util.spec_from_file_location("ethosu_sdk_user_function", where)
    if spec is None or spec.loader is None:
        raise ImportError(f"not a Python file: {where}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
