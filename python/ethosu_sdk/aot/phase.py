"""Errors raised inside a stage of compile_model, named by model and phase."""

from __future__ import annotations

import contextlib
from typing import Iterator

from ethosu_sdk.aot.errors import AotError, ModelError, first_line
from ethosu_sdk.models import UnknownModelError


@contextlib.contextmanager
def phase(model: str, name: str) -> Iterator[None]:
    """Names the model and the phase in any error raised inside: the model's
    own code runs in every phase (build, forward, calibration)."""
    try:
        yield
    except UnknownModelError:
        raise
    except AotError as e:
        raise type(e)(f"model {model!r} failed while {name}: {e}") from e
    except Exception as e:  # the model's code may raise anything
        raise ModelError(f"model {model!r} failed while {name}: {first_line(e)}") from e
