"""Errors of the AOT flow: each maps to a clear message and a non-zero exit."""


class AotError(Exception):
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
