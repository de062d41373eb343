"""ExecuTorch's own quantizer helpers, as `ethosu_model`'s quantizer_setup.

Some Arm operator tests configure their pipeline's quantizer with a helper
of their file before running it: test_sigmoid_32bit.py's
`configure_32bit_sigmoid_quantizer(pipeline)` sets an int32 global config
and an int16-in/int32-out config for every `Sigmoid`. The collector records
such a helper by name (collect.py's _QuantizerSpy); a case then compiles
with

    quantizer_setup = "pipeline_setup:ops.test_sigmoid_32bit.configure_32bit_sigmoid_quantizer"

which calls the wheel's helper itself, unchanged, on a pipeline whose
quantizer is the SDK's (already configured as the pipeline's constructor
would: the case's quantize, weights, per_channel and io_quantization).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

TEST_PACKAGE = "executorch.backends.arm.test"


class _Pipeline:
    """What a helper reads of an ExecuTorch test pipeline: its quantizer."""

    def __init__(self, quantizer: Any) -> None:
        self.quantizer = quantizer


class _TestFile:
    """`<helper>` of one test file, as a function of the SDK's quantizer."""

    def __init__(self, module: str) -> None:
        self._module = module

    def __getattr__(self, helper: str) -> Callable[[Any], None]:
        function = getattr(importlib.import_module(self._module), helper)

        def setup(quantizer: Any) -> None:
            function(_Pipeline(quantizer))

        return setup


class _Tests:
    """`<test file>.<helper>` of one package of ExecuTorch's Arm tests."""

    def __init__(self, package: str) -> None:
        self._package = package

    def __getattr__(self, file: str) -> _TestFile:
        if not file.startswith("test_"):
            raise AttributeError(f"{self._package} has no test file {file}")
        return _TestFile(f"{self._package}.{file}")


ops = _Tests(f"{TEST_PACKAGE}.ops")


def reference(file: str, helper: str) -> str:
    """The quantizer_setup value of `helper` in ops test file `file`."""
    return f"pipeline_setup:ops.{file}.{helper}"
