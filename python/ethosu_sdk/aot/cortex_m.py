"""Lowering for a Cortex-M without an NPU: ExecuTorch's cortex_m backend.

PT2E quantization with `CortexMQuantizer`, then `to_edge` and the
`CortexMPassManager`, which rewrites the quantized graph into `cortex_m::`
int8 operators (the SDK's own kernels run them: cc/kernels/cortex_m). The
legacy pass list converts convolutions only when the model and its input
are channels-last, so both are made so here.
"""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

import torch

from ethosu_sdk.aot import integer_io, memory_plan
from ethosu_sdk.aot.errors import AotError, LoweringError
from ethosu_sdk.aot.workarounds.integer_dilated_conv import exact_integer_conv2d

# Target name -> the cortex_m backend's CPU (target_config.CortexM member).
CORTEX_M_CPUS = {
    "cortex-m55": "M55",
    "cortex-m85": "M85",
    "cortex-m33": "M33",
    "cortex-m4": "M4",
    "cortex-m7": "M7",
}


@dataclasses.dataclass
class CortexMLowered:
    edge: object  # EdgeProgramManager after the cortex_m passes
    program: object  # ExecutorchProgramManager
    expected: tuple[torch.Tensor, ...]  # the lowered graph's outputs, run in Python
    # Integer I/O: the folded quantize/dequantize parameters (None: float I/O).
    folded: Optional[integer_io.FoldedIo] = None


def _register_operators() -> None:
    """Imports the cortex_m backend (only when a Cortex-M target is compiled:
    it is not needed elsewhere). The passes package first: it imports the
    operators (registering torch.ops.cortex_m) before the modules that look
    them up; importing the operators module first is circular in executorch
    1.5.1."""
    import executorch.backends.cortex_m.passes  # noqa: F401


def channels_last(t: torch.Tensor) -> torch.Tensor:
    return t.contiguous(memory_format=torch.channels_last) if t.dim() == 4 else t


def quantize(
    module: torch.nn.Module, inputs: Sequence[torch.Tensor], samples: Sequence[Sequence[torch.Tensor]] = ()
) -> torch.fx.GraphModule:
    """PT2E with CortexMQuantizer on a channels-last copy of the model,
    calibrated on `samples` (the inputs when there are none)."""
    _register_operators()
    from executorch.backends.cortex_m.quantizer.quantizer import CortexMQuantizer
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    module = module.to(memory_format=torch.channels_last)
    inputs = tuple(channels_last(t) for t in inputs)
    graph = torch.export.export(module, inputs).module(check_guards=False)
    prepared = prepare_pt2e(graph, CortexMQuantizer())
    for sample in samples or [inputs]:
        prepared(*(channels_last(t) for t in sample))
    return convert_pt2e(prepared)


def lower(
    converted: torch.nn.Module, inputs: Sequence[torch.Tensor], target: str, int8_io: bool = False
) -> CortexMLowered:
    """The quantized module through to_edge, the cortex_m passes for
    `target`'s CPU and to_executorch; the expected outputs are the
    transformed graph's own (the cortex_m operators' Python reference).

    `int8_io`: the input quantize and output dequantize are folded out
    (integer_io.py) before the passes; the graph then runs on the inputs
    quantized with the folded parameters, and the expected outputs are int8."""
    _register_operators()
    from executorch.backends.cortex_m.edge_compile_config import cortex_m_edge_compile_config
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager
    from executorch.backends.cortex_m.target_config import CortexM, CortexMTargetConfig
    from executorch.exir import EdgeProgramManager, ExecutorchBackendConfig, to_edge

    if target not in CORTEX_M_CPUS:
        raise LoweringError(f"no Cortex-M CPU for target {target!r}; Cortex-M targets: {', '.join(CORTEX_M_CPUS)}")
    inputs = tuple(channels_last(t) for t in inputs)
    # The backend's own to_edge configuration: it keeps linear (and the
    # activations it fuses) from decomposing, without which the passes leave
    # an int8 addmm no kernel can run.
    config = cortex_m_edge_compile_config()
    try:
        edge = to_edge(torch.export.export(converted, inputs), compile_config=config)
        folded = None
        if int8_io:
            folded = integer_io.fold(edge.exported_program())
            inputs = integer_io.quantize_all(inputs, folded.inputs)
        transformed = CortexMPassManager(
            edge.exported_program(), target_config=CortexMTargetConfig(cpu=getattr(CortexM, CORTEX_M_CPUS[target]))
        ).transform()
        # Before to_executorch, which rewrites the graph to .out operators.
        with torch.no_grad(), exact_integer_conv2d():
            result = transformed.module()(*inputs)
        expected = tuple(result) if isinstance(result, (tuple, list)) else (result,)
        lowered = EdgeProgramManager({"forward": transformed}, compile_config=config)
        # Outputs may overlap their dying inputs where the kernels allow (memory_plan.py).
        program = lowered.to_executorch(ExecutorchBackendConfig(memory_planning_pass=memory_plan.planning_pass()))
        _ = program.buffer  # serialise now, so errors surface here
    except AotError:
        raise
    except Exception as e:
        message = str(e).strip().splitlines()[0] if str(e).strip() else ""
        raise LoweringError(f"lowering for {target} (cortex_m passes) failed ({type(e).__name__}): {message}") from e
    return CortexMLowered(lowered, program, expected, folded)
