"""Integer I/O: a program that takes and returns the quantized tensors.

By default a quantized program takes float inputs and returns float outputs:
its first operator quantizes each input and its last dequantizes each
output, on the CPU. With `--io=int8` those operators are folded out of the
edge graph by ExecuTorch's own `quantize_input` / `quantize_output`
(`executorch.exir.passes.quantize_io_pass`, the functions its
`QuantizeInputs` / `QuantizeOutputs` passes apply), so a camera's or a
microphone's integers go straight in and the int8 results come straight out.

The functions are applied to the ExportedProgram directly, not through the
passes with an EdgeProgramManager: the passes would also record the
parameters as extra constant methods of the program ("forward_input0_scale"
...), which the SDK's summary already carries.

The reference files follow: the int8 input is the float example input
quantized with the program's input parameters (what the folded operator
computed), the expected int8 output is the reference's dequantized output
quantized back with the output parameters (exact: a dequantized value is
(q - zero point) * scale, which the same scale maps back to q).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Sequence

import torch

from ethosu_sdk.aot.errors import InvalidOptionError


class IoMode(enum.Enum):
    FLOAT = "float"  # quantize/dequantize inside the program (the default)
    INT8 = "int8"  # the program takes and returns the quantized tensors

    @classmethod
    def parse(cls, text: str) -> "IoMode":
        try:
            return cls(text.lower())
        except ValueError:
            raise InvalidOptionError(f"unknown io {text!r}; choose one of {', '.join(m.value for m in cls)}") from None


@dataclasses.dataclass(frozen=True)
class QuantArgs:
    """The arguments of a folded quantize or dequantize operator."""

    scale: float
    zero_point: int
    qmin: int
    qmax: int
    dtype: torch.dtype

    @classmethod
    def of(cls, args: Sequence[Any]) -> "QuantArgs":
        scale, zero_point, qmin, qmax, dtype = args[:5]
        return cls(float(scale), int(zero_point), int(qmin), int(qmax), dtype)

    def quantize(self, value: torch.Tensor) -> torch.Tensor:
        """`value` quantized as the folded operator did (PyTorch's own
        quantize_per_tensor), keeping its memory format."""
        result = torch.ops.quantized_decomposed.quantize_per_tensor(
            value.contiguous(), self.scale, self.zero_point, self.qmin, self.qmax, self.dtype
        )
        if value.dim() == 4 and value.is_contiguous(memory_format=torch.channels_last) and not value.is_contiguous():
            result = result.contiguous(memory_format=torch.channels_last)
        return result


@dataclasses.dataclass
class FoldedIo:
    inputs: list[QuantArgs]
    outputs: list[QuantArgs]


def fold(exported_program) -> FoldedIo:
    """Folds every user input's quantize and every output's dequantize out of
    an edge-dialect (or ATen) ExportedProgram, in place.

    Raises InvalidOptionError, naming the input or output, where one is not
    quantized per tensor (a float input, or one used by several operators)."""
    from executorch.exir.passes.quantize_io_pass import quantize_input, quantize_output

    inputs = []
    for index in range(len(exported_program.graph_signature.user_inputs)):
        try:
            inputs.append(QuantArgs.of(quantize_input(exported_program, index)))
        except (ValueError, AssertionError) as e:
            raise InvalidOptionError(
                f"--io=int8: input {index} cannot be taken quantized ({e}); use --io=float"
            ) from None
    outputs = []
    output_node = exported_program.graph_module.graph.output_node()
    for index in range(len(output_node.args[0])):
        try:
            outputs.append(QuantArgs.of(quantize_output(exported_program, index)))
        except ValueError as e:
            raise InvalidOptionError(
                f"--io=int8: output {index} cannot be returned quantized ({e}); use --io=float"
            ) from None
    # The signature's output specs name the output nodes: keep them in step.
    results = exported_program.graph_module.graph.output_node().args[0]
    for spec, node in zip(exported_program.graph_signature.output_specs, results):
        if isinstance(node, torch.fx.Node) and hasattr(spec.arg, "name"):
            spec.arg.name = node.name
    exported_program.graph_module.recompile()
    return FoldedIo(inputs, outputs)


def quantize_all(tensors: Sequence[torch.Tensor], args: Sequence[QuantArgs]) -> tuple[torch.Tensor, ...]:
    """Each tensor quantized with its arguments (inputs or reference outputs)."""
    if len(tensors) != len(args):
        raise ValueError(f"{len(tensors)} tensors for {len(args)} quantization parameter sets")
    return tuple(a.quantize(t) for t, a in zip(tensors, args))
