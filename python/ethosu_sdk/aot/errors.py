"""Errors of the AOT flow: each maps to a clear message and a non-zero exit."""

from ethosu_sdk.errors import SdkError


class AotError(SdkError):
    """Base class: a user-facing failure of the AOT flow."""


class UnknownTargetError(AotError):
    pass


class InvalidOptionError(AotError):
    pass


class CalibrationError(AotError):
    pass


class ExportError(AotError):
    pass


class QuantizationError(AotError):
    pass


class LoweringError(AotError):
    pass


class ModelError(AotError):
    """The model's own code (or what it calls) raised, or it returned the wrong thing."""


def first_line(error: BaseException) -> str:
    """`Type: first line of the message`: one line for any exception."""
    text = str(error).strip()
    line = text.splitlines()[0] if text else ""
    return f"{type(error).__name__}: {line}" if line else type(error).__name__
