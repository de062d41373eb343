"""Lowering an exported program to an ExecuTorch program for a target."""

from __future__ import annotations

import copy
from typing import Callable, Optional

import torch

from ethosu_sdk.aot.errors import AotError, LoweringError
from ethosu_sdk.aot.targets import Target, TargetKind


def make_partitioner(target: Target, compile_spec):
    """EthosUPartitioner / TOSAPartitioner; None for the CPU target."""
    if target.kind is TargetKind.ETHOS_U:
        from executorch.backends.arm.ethosu import EthosUPartitioner

        from ethosu_sdk.aot.workarounds import vela_conv3d_crop, vela_faults

        checks = vela_conv3d_crop.keep_crops_on_cpu() if vela_faults.applies(vela_faults.CONV3D_SLICE) else []
        return EthosUPartitioner(compile_spec, additional_checks=checks)
    if target.kind is TargetKind.TOSA:
        from executorch.backends.arm.tosa.partitioner import TOSAPartitioner

        return TOSAPartitioner(compile_spec)
    return None


def lower(
    exported_program: torch.export.ExportedProgram,
    target: Target,
    compile_spec,
    edge_hook: Optional[Callable[[object], object]] = None,
):
    """to_edge_transform_and_lower (with the target's partitioner, or none for
    the CPU), then to_executorch. Returns (edge manager, executorch manager).

    `edge_hook` takes the partitioned edge manager and returns the one to
    serialise (the CPU's int8 fallbacks: cpu_fallback.py; integer I/O:
    integer_io.py)."""
    from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower

    partitioner = make_partitioner(target, compile_spec)
    try:
        edge = to_edge_transform_and_lower(
            exported_program,
            partitioner=[partitioner] if partitioner is not None else None,
            # The quantized_decomposed q/dq operators are not core ATen.
            compile_config=EdgeCompileConfig(_check_ir_validity=False),
        )
        to_serialise = edge
        if edge_hook is not None:
            edge = edge_hook(edge)
            # A rewritten program (cortex_m:: fallbacks) is serialised from a
            # copy: to_executorch turns its operators into .out variants that
            # only the runtime has, and the edge graph still runs in Python
            # afterwards (verify_data, lowering_reference).
            to_serialise = edge if edge is to_serialise else copy.deepcopy(edge)
        program = to_serialise.to_executorch()
        _ = program.buffer  # serialise now, so errors surface here
    except AotError:
        raise
    except Exception as e:
        message = str(e).strip().splitlines()[0] if str(e).strip() else ""
        raise LoweringError(f"lowering for {target.name} failed ({type(e).__name__}): {message}") from e
    return edge, program


def delegation_counts(edge) -> tuple[dict[str, int], dict[str, int], int]:
    """(delegated operator counts, CPU operator counts, number of delegates)
    from ExecuTorch's own delegation analysis of the edge graph."""
    from executorch.devtools.backend_debug import get_delegation_info

    info = get_delegation_info(edge.exported_program().graph_module)
    # Memory planning and tuple unpacking are not operators.
    bookkeeping = {"alloc", "getitem"}
    delegated = {op: b.delegated for op, b in sorted(info.delegation_by_operator.items()) if b.delegated}
    cpu = {
        op: b.non_delegated
        for op, b in sorted(info.delegation_by_operator.items())
        if b.non_delegated and op not in bookkeeping
    }
    return delegated, cpu, info.num_delegated_subgraphs


def tosa_payloads(edge) -> list[bytes]:
    """The processed bytes of every lowered module (TOSA flatbuffers for the
    TOSA target), in graph order."""
    graph_module = edge.exported_program().graph_module
    payloads = []
    for node in graph_module.graph.nodes:
        if node.op == "get_attr" and node.target.startswith("lowered_module"):
            payloads.append(bytes(getattr(graph_module, node.target).processed_bytes))
    return payloads
