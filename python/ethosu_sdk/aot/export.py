"""torch.export of a model, with errors turned into ExportError."""

from __future__ import annotations

import torch
from torch import nn

from ethosu_sdk.aot.errors import ExportError


def export_program(
    model: nn.Module, inputs: tuple[torch.Tensor, ...], strict: bool = False
) -> torch.export.ExportedProgram:
    try:
        return torch.export.export(model, inputs, strict=strict)
    except Exception as e:
        first_line = str(e).strip().splitlines()[0] if str(e).strip() else ""
        raise ExportError(f"torch.export failed ({type(e).__name__}): {first_line}") from e


def export_for_quantization(
    model: nn.Module, inputs: tuple[torch.Tensor, ...], strict: bool = False
) -> torch.fx.GraphModule:
    """The exported graph as a module that prepare_pt2e accepts.

    With torch 2.13 + executorch 1.5.1 the module must be taken without guard
    checks: otherwise the Arm quantizer's passes trip on the `_guards_fn`
    call_module node that `.module()` inserts.
    """
    return export_program(model, inputs, strict).module(check_guards=False)
