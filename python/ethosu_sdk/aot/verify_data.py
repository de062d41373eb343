"""What ethosu_model's verification step needs from the AOT flow.

The verification (python/ethosu_sdk/verify) runs each Ethos-U delegate's
payload on the functional NPU model and its TOSA graph on the TOSA reference
model, and names a differing layer after the PyTorch code it came from. The
AOT flow writes, per partition, into `<name>.verify/`:

    manifest.json             partitions, files, what was skipped and why
    partitionN.tosa           the TOSA graph Vela compiled
    partitionN.inputs.tensors the delegate's integer and bool inputs for the example
                              input, in the order and memory layout the TOSA
                              graph takes them
    partitionN.debug.xml      Vela's debug database (command stream offset ->
                              TOSA tensor), if Vela wrote one
    partitionN.origins.json   TOSA tensor name -> PyTorch module path, module
                              type, operator and source file:line

TOSA tensor names: ExecuTorch's Arm backend names each TOSA tensor after the
FX node that produces it (plus a suffix for some multi-output operators) in
the graph its backend passes leave (`ArmPassManager`'s
`transform_to_backend_pipeline`). Those nodes keep `nn_module_stack`; their
`stack_trace` is often the pass that made them, so the source line comes from
the node's provenance (`from_node`, back to the node of the first export,
whose stack trace is the model's code).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Iterable, Optional

import torch

from ethosu_sdk.aot import layout
from ethosu_sdk.tensors import encode

FORMAT_VERSION = 1
# What a delegate can take and the tensor file holds as the NPU reads it.
# A bool is TOSA's one byte 0/1 (torch.logical_*): Vela reads it as a byte
# feature map, as the npu_cases u85_logical_* pin (sim/tests/npu).
_DELEGATE_INPUT_TYPES = (torch.int8, torch.int16, torch.int32, torch.bool)
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')
# Frames in these are the toolchain's, not the model's.
_LIBRARY_MARKERS = ("site-packages", "dist-packages", "/lib/python3", "/torch/", "/executorch/")


def user_frame(stack_trace: Optional[str]) -> Optional[str]:
    """`path:line` of the innermost frame of the model's own code, or None.
    Paths inside a Bazel sandbox or runfiles tree are shortened to the
    workspace-relative path."""
    if not stack_trace:
        return None
    found = None
    for path, line, _ in _FRAME.findall(stack_trace):
        if not any(marker in path for marker in _LIBRARY_MARKERS):
            found = (path, line)
    if found is None:
        return None
    path, line = found
    for marker in ("/execroot/_main/", ".runfiles/_main/"):  # a runfiles tree may be in the execroot
        path = path.split(marker)[-1]
    return f"{path}:{line}"


def source_lines(graph_module: torch.fx.GraphModule) -> dict[str, dict[str, Optional[str]]]:
    """Node name -> source line and operator, for the first exported graph."""
    lines = {}
    for node in graph_module.graph.nodes:
        if node.op == "call_function":
            lines[node.name] = {"source": user_frame(node.meta.get("stack_trace")), "op": _op_name(node.target)}
    return lines


def _op_name(target: Any) -> str:
    name = getattr(target, "__name__", None) or str(target)
    return re.sub(r"^aten\.|\.default$", "", name.replace("::", "."))


def _root_name(node: torch.fx.Node) -> Optional[str]:
    """The name of the first-export node this node descends from."""
    source = node.meta.get("from_node")
    root = None
    while source:
        entry = source[-1] if isinstance(source, list) else source
        root = getattr(entry, "name", None)
        source = getattr(entry, "from_node", None)
    return root


def node_origins(graph_module: torch.fx.GraphModule) -> dict[str, dict[str, object]]:
    """TOSA tensor name (FX node name) -> raw origin, for a backend graph."""
    origins: dict[str, dict[str, object]] = {}
    for node in graph_module.graph.nodes:
        if node.op not in ("call_function", "placeholder"):
            continue
        stack = node.meta.get("nn_module_stack") or {}
        path, kind = next(reversed(stack.values())) if stack else ("", None)
        if isinstance(kind, type):
            kind = kind.__name__
        value = node.meta.get("val")
        origins[node.name] = {
            "module": path,
            "module_type": str(kind).rsplit(".", 1)[-1] if kind else None,
            "root": _root_name(node),
            "own_source": user_frame(node.meta.get("stack_trace")),
            "tosa_op": _op_name(node.target) if node.op == "call_function" else "input",
            # For the lowering check (lowering_reference.py): which TOSA
            # tensors can hold a quantized value, and of how many elements.
            "dtype": str(value.dtype).replace("torch.", "") if isinstance(value, torch.Tensor) else None,
            "numel": int(value.numel()) if isinstance(value, torch.Tensor) else None,
        }
    return origins


def resolve_origins(
    raw: dict[str, dict[str, Optional[str]]], first: dict[str, dict[str, Optional[str]]]
) -> dict[str, dict[str, Optional[str]]]:
    """Adds the source line and PyTorch operator from the first export."""
    resolved = {}
    for name, origin in raw.items():
        root = first.get(origin.get("root") or "", {})
        resolved[name] = {
            "module": origin["module"],
            "module_type": origin["module_type"],
            "op": root.get("op") or origin["tosa_op"],
            "source": root.get("source") or origin["own_source"],
        }
    return resolved


def _in_program_order(value: torch.Tensor, node: Any) -> torch.Tensor:
    """`value` in the memory order the program gives the delegate: the
    graph's tensor (its node's `val`), not the eager one, which an operator
    such as quantize_per_tensor returns contiguous even from a channels-last
    input (an NHWC program's delegate reads its input channels-last)."""
    planned = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
    if isinstance(planned, torch.Tensor) and planned.dim() == 4 and tuple(planned.dim_order()) == (0, 2, 3, 1):
        return value.detach().contiguous(memory_format=torch.channels_last)
    return value.detach().clone()


def delegate_inputs(edge, program_inputs: tuple[torch.Tensor, ...]) -> list[list[torch.Tensor]]:
    """The inputs each delegate sees when the edge program runs on
    `program_inputs` (host run: each delegate runs its original graph)."""
    from torch.fx import Interpreter

    seen: list[list[torch.Tensor]] = []

    class Recorder(Interpreter):
        def run_node(self, n):
            if n.op == "call_function" and "executorch_call_delegate" in str(getattr(n.target, "__name__", n.target)):
                args, _ = self.fetch_args_kwargs_from_env(n)
                seen.append(
                    [_in_program_order(a, node) for a, node in zip(args[1:], n.args[1:]) if isinstance(a, torch.Tensor)]
                )
            return super().run_node(n)

    with torch.no_grad():
        Recorder(edge.exported_program().module()).run(*program_inputs)
    return seen


def write(
    directory: str,
    target: str,
    partitions: Iterable,
    inputs: list[list[torch.Tensor]],
    first: dict[str, dict[str, Optional[str]]],
) -> None:
    """Writes `directory` (see the module doc). `partitions` are
    vela_capture.VelaPartition; `inputs` from delegate_inputs."""
    os.makedirs(directory, exist_ok=True)
    entries = []
    partitions = list(partitions)
    for p in partitions:
        stem = f"partition{p.index}"
        entry: dict[str, Any] = {
            "index": p.index,
            "tosa": stem + ".tosa",
            "origins": stem + ".origins.json",
            "debug_db": None,
            "inputs": None,
            "skipped": None,
        }
        with open(os.path.join(directory, entry["tosa"]), "wb") as f:
            f.write(p.tosa_flatbuffer)
        with open(os.path.join(directory, entry["origins"]), "w") as f:
            json.dump(resolve_origins(p.origins, first), f, indent=1, sort_keys=True)
        if p.debug_db:
            entry["debug_db"] = stem + ".debug.xml"
            with open(p.debug_db, "rb") as src, open(os.path.join(directory, entry["debug_db"]), "wb") as dst:
                dst.write(src.read())
        if len(inputs) != len(partitions):
            entry["skipped"] = (
                f"the program has {len(inputs)} delegate calls for {len(partitions)} Vela partitions: inputs unknown"
            )
        elif any(t.dtype not in _DELEGATE_INPUT_TYPES for t in inputs[p.index]):
            entry["skipped"] = "a delegate input is neither an integer nor a bool tensor"
        else:
            entry["inputs"] = stem + ".inputs.tensors"
            with open(os.path.join(directory, entry["inputs"]), "wb") as f:
                # In memory order: what the delegate reads (layout.py).
                f.write(encode([layout.in_memory_order(t, t.dim_order() if t.dim() else ()) for t in inputs[p.index]]))
        entries.append(entry)
    manifest = {"format_version": FORMAT_VERSION, "target": target, "partitions": entries}
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
