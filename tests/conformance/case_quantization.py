"""The quantization an ExecuTorch Ethos-U test case asks for, in the SDK's
terms: `ethosu_model`'s quantize, weights, per_channel and io_quantization,
or why the SDK cannot express it.

An Ethos-U pipeline (EthosUPipelineINTBase in the wheel's test_pipeline.py)
builds one quantization config from its constructor's arguments
(a16w8_quantization, per_channel_quantization, epsilon) and gives it to its
quantizer as the global config, and, with symmetric_io_quantization, to
`quantizer.set_io` as well; a test may then call the quantizer itself
(`set_global(get_symmetric_a8w4_quantization_config(...))`, `set_io`,
`set_module_type`, ...). collect.py records those calls (`Asked`);
`resolve` reads the configs' specs (dtype, range, scheme), not their names.
Where a helper function of the test file makes the calls for part of the
graph, the case runs that helper on the SDK's quantizer
(`quantizer_setup`, pipeline_setup.py); the same calls made inline in
the test function cannot be replayed, and the case is unexpressible.

The SDK calibrates post-training with the observers of its own configs
(aot/quantization.global_config): where a case's observers or their eps
differ (ExecuTorch's A8W4 config defaults to QAT's fake-quant observers),
the case runs in the same format with the SDK's calibration, and
`Resolved.calibration` says how they differ.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

import torch

from ethosu_sdk.aot import quantization
from ethosu_sdk.aot.targets import QuantMode


@dataclasses.dataclass
class Asked:
    """A pipeline's quantization calls, as collect.py's recorder saw them."""

    global_config: Any  # ExecuTorch's QuantizationConfig: the constructor's, then set_global's
    io_config: Any = None  # set_io's (symmetric_io_quantization: the constructor's config)
    others: list[str] = dataclasses.field(default_factory=list)  # other quantizer calls, one line each
    # The quantize stage's calibration_samples, when the test sets them.
    calibration_samples: Optional[tuple[tuple[Any, ...], ...]] = None
    # The test file's own helper that configured part of the graph
    # (`configure_32bit_sigmoid_quantizer(pipeline)`), as ethosu_model's
    # quantizer_setup (pipeline_setup.reference), and whether it also set the
    # global config, which then replaces the constructor's in the replay.
    setup: Optional[str] = None
    setup_sets_global: bool = False
    constructor_config: Any = None

    @classmethod
    def of_pipeline(cls, values: dict[str, Any]) -> "Asked":
        """The config an Ethos-U pipeline's constructor builds from its
        (bound, defaulted) arguments, as EthosUPipelineINTBase does."""
        from executorch.backends.arm.quantizer import (
            get_symmetric_a16w8_quantization_config,
            get_symmetric_quantization_config,
        )

        per_channel = values.get("per_channel_quantization", True)
        if values.get("a16w8_quantization"):
            config = get_symmetric_a16w8_quantization_config(is_per_channel=per_channel, epsilon=values["epsilon"])
        else:
            config = get_symmetric_quantization_config(is_per_channel=per_channel)
        return cls(config, config if values.get("symmetric_io_quantization") else None, constructor_config=config)


@dataclasses.dataclass(frozen=True)
class Resolved:
    """What the SDK runs a case with."""

    quantize: str  # ethosu_model's quantize: int8 or a16w8
    weights: str  # int8 or int4 (A8W4)
    per_channel: bool
    set_io: bool  # the graph's inputs and outputs also annotated by the quantizer's set_io
    unexpressible: Optional[str] = None  # why the SDK cannot run the case as ExecuTorch does
    calibration: Optional[str] = None  # how ExecuTorch's observers differ from the SDK's
    calibration_samples: int = 0  # the test's own calibration samples (0: the example input)
    setup: Optional[str] = None  # quantizer_setup: the test's own helper, run on the SDK's quantizer

    def settings(self) -> dict[str, bool]:
        """The settings in ExecuTorch's names (collect.QUANTIZATION_SETTINGS)."""
        return {
            "per_channel_quantization": self.per_channel,
            "symmetric_io_quantization": self.set_io,
            "a16w8_quantization": self.quantize == "a16w8",
            "a8w4_quantization": self.weights == "int4",
        }

    def options(self) -> dict[str, Any]:
        """ethosu_model's options besides quantize, where not the default."""
        options: dict[str, Any] = {}
        if self.weights != "int8":
            options["weights"] = self.weights
        if not self.per_channel:
            options["per_channel"] = False
        if self.set_io:
            options["io_quantization"] = "set_io"
        if self.setup:
            options["quantizer_setup"] = self.setup
        return options

    def label(self) -> str:
        """One string: `int8`, `a16w8 per_channel=False`, `int8 weights=int4
        io_quantization=set_io`, `int8 calibration_samples=3` (the test's
        own samples, cases.bzl); "unexpressible" for a case the SDK
        cannot run. The suite's target tuples and the bench's results key on it."""
        if self.unexpressible:
            return "unexpressible"
        samples = [f"calibration_samples={self.calibration_samples}"] if self.calibration_samples else []
        return " ".join([self.quantize] + [f"{k}={v}" for k, v in self.options().items()] + samples)


class _Unexpressible(Exception):
    pass


def _activations(spec: Any, where: str) -> str:
    """int8 (per-tensor affine, [-128, 127]) or int16 (symmetric, [-32767, 32767])."""
    if spec is None:
        raise _Unexpressible(f"{where} left in float")
    kind = (spec.dtype, spec.quant_min, spec.quant_max, spec.qscheme)
    if kind == (torch.int8, -128, 127, torch.per_tensor_affine):
        return "int8"
    if kind == (torch.int16, -32767, 32767, torch.per_tensor_symmetric):
        return "int16"
    raise _Unexpressible(f"{where} {spec.dtype} in [{spec.quant_min}, {spec.quant_max}] {spec.qscheme}")


def _weights(spec: Any) -> tuple[str, bool]:
    """(int8 or int4, per channel) of a symmetric int8 weight spec."""
    if spec is None:
        raise _Unexpressible("weights left in float")
    schemes = {torch.per_channel_symmetric: True, torch.per_tensor_symmetric: False}
    ranges = {(-127, 127): "int8", (-7, 7): "int4"}
    bits = ranges.get((spec.quant_min, spec.quant_max))
    if spec.dtype != torch.int8 or spec.qscheme not in schemes or bits is None:
        raise _Unexpressible(f"weights {spec.dtype} in [{spec.quant_min}, {spec.quant_max}] {spec.qscheme}")
    return bits, schemes[spec.qscheme]


def _config(config: Any) -> tuple[str, str, bool]:
    """(activations, weights, per channel) of a global config."""
    if config is None:
        raise _Unexpressible("the whole graph left in float")
    inputs = _activations(config.input_activation, "activations")
    outputs = _activations(config.output_activation, "activations")
    if inputs != outputs:
        raise _Unexpressible(f"{inputs} operator inputs with {outputs} outputs")
    weights, per_channel = _weights(config.weight)
    if weights == "int4" and inputs != "int8":
        raise _Unexpressible(f"4-bit weights with {inputs} activations (the SDK's int4 is A8W4)")
    return inputs, weights, per_channel


def _observers(spec: Any) -> str:
    """An observer constructor's class and eps, as `HistogramObserver(eps=2**-16)`."""
    partial = getattr(spec.observer_or_fake_quant_ctr, "p", None)
    func = getattr(partial, "func", spec.observer_or_fake_quant_ctr)
    eps = (getattr(partial, "keywords", None) or {}).get("eps")
    return f"{getattr(func, '__name__', func)}" + (f"(eps={eps:g})" if eps is not None else "")


def _calibration(config: Any, sdk: Any) -> Optional[str]:
    """How `config`'s observers differ from the SDK's config of the same format."""
    theirs = [_observers(s) for s in (config.input_activation, config.weight)]
    ours = [_observers(s) for s in (sdk.input_activation, sdk.weight)]
    if theirs == ours:
        return None
    return f"ExecuTorch's observers {', '.join(theirs)}; the SDK's {', '.join(ours)}"


def resolve(asked: Asked) -> Resolved:
    """The SDK's settings for a case, or the reason it has none."""
    try:
        if asked.others:
            raise _Unexpressible("; ".join(asked.others))
        # A helper's set_global is replayed with the rest of the helper: the
        # options are the constructor's.
        config = asked.constructor_config if asked.setup and asked.setup_sets_global else asked.global_config
        activations, weights, per_channel = _config(config)
        if asked.io_config is not None:
            io = _activations(asked.io_config.input_activation, "I/O")
            if io != activations:
                raise _Unexpressible(f"{io} I/O with {activations} operators")
    except _Unexpressible as e:
        return Resolved("int8", "int8", True, False, unexpressible=f"unexpressible quantization: {e}")
    mode = QuantMode.INT8 if activations == "int8" else QuantMode.A16W8
    scheme = quantization.Scheme(weights, per_channel)
    calibration = _calibration(config, quantization.global_config(mode, scheme))
    return Resolved(
        mode.value,
        weights,
        per_channel,
        asked.io_config is not None,
        calibration=calibration,
        calibration_samples=len(asked.calibration_samples or ()),
        setup=asked.setup,
    )
