"""Workarounds for ExecuTorch Arm backend lowerings that compute the wrong
numbers, applied while a model is lowered (the lowering check in
python/ethosu_sdk/verify/lowering_check.py finds them; vela_workarounds.py
does the same for Vela).

ExecuTorch 1.5.1, dropped activation clamp (pytorch/executorch#21974, "Fuse
quantized activations by setting qmin to zp"): `FuseQuantizedActivationPass`
deletes a ReLU (or a hardtanh/ReLU6 from 0) that follows a convolution or a
linear layer and moves its effect into the quantize node's qmin, which it
sets to the zero point. `RewriteConvPass.insert_output_rescale` then builds
the convolution's output RESCALE from dtype, scale and zero point only, with
no CLAMP: where the zero point is above the dtype's minimum (the ReLU's
output shares its quantization with a concatenation's other inputs, an
addition, ...) negative values pass. Issue 33's reproducer, conv -> ReLU ->
cat, is 68 steps off. The workaround adds CLAMP(qmin, qmax) after that
RESCALE whenever the quantization's range is narrower than its dtype's; it
moves no other value (a RESCALE's result is already in the dtype's range).
Drop it once ExecuTorch's own rescale honours qmin/qmax
(`tests/lowering:conv_relu_cat_*` with `lowering_workarounds = False`
passing shows that).

After a linear layer the CLAMP would sit between the RESCALE and the
layer's output RESHAPE, which Vela 5.1.0 compiles wrongly (5.2.0 does
not); with 5.1.0 the backend graph gets it after the RESHAPE instead
(vela_workarounds.py, `clamps_after_reshapes`; vela_faults.LINEAR_CLAMP).

ExecuTorch 1.5.1, 16-bit neg without a rescale (issue 34, ExecuTorch's
test_neg A16W8 `rank_4_randn_pos`: 64 of 64 elements 4-5 steps off
PyTorch's quantized graph): `op_tosa_neg.py` emits NEGATE alone, though
the quantizer gives neg's input and output different scales.
`rescale_negates` adds the RESCALE by their ratio on the backend graph
(in the same context, `clamp_fused_activations`, which is how the AOT
flow enters every lowering workaround). Drop it once
`tests/lowering:neg_u55_a16w8_unfixed` verifies clean.

ExecuTorch 1.5.1, U55 right shift rounded (issue 34, ExecuTorch's
test_rshift U55 cases: 8 of 18 elements one off PyTorch's `>>`, which its
test accepts with atol 1): `op_tosa_rshift_tensor.py` emits
ARITHMETIC_RIGHT_SHIFT with round = True on U55 (MLETORCH-525: the U55's
SHR has no round-to-lower mode, Vela maps round = False to one only U85
has), so x >> s comes out as floor(x / 2^s + 1/2). `floor_right_shifts`
shifts x - 2^(s-1) instead, on the backend graph: rounded, that is
floor(x / 2^s) exactly, and 2^(s-1) is itself a rounded shift of 2^s - 1
by one (0 for s = 0), so the whole decomposition uses only the rounding
shift the U55 has (SHL, SUB, SHR). Its int32 SUBs stay in range for every
shift amount below 31 and every x at least 2^(s-1) above int32's minimum
(inputs widened from int8 or int16 always are). Drop it once ExecuTorch
emulates round = False itself (`tests/lowering:rshift_u55_unfixed`
verifying clean shows that).
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Iterator

import torch

from ethosu_sdk.aot.workarounds import vela_faults, vela_workarounds

NAME = "executorch_1.5.1_fused_activation_clamp"
# The rescale outputs the workaround clamps: 8-bit activations. ExecuTorch's
# A16W8 convolution path rewires the int16 RESCALE it gets back into
# widened int32 branches, so a CLAMP cannot stand in for it there.
_CLAMPED_DTYPES = (torch.int8,)


@dataclasses.dataclass
class Applied:
    """What the workaround changed during one lowering (for the summary)."""

    name: str = NAME
    nodes: list[str] = dataclasses.field(default_factory=list)  # backend graph nodes clamped
    # CLAMPs moved after a linear layer's output RESHAPE (Vela's issue).
    after_reshape: list[str] = dataclasses.field(default_factory=list)
    # 16-bit NEGATEs given the RESCALE between their scales (rescale_negates).
    rescaled_negates: list[str] = dataclasses.field(default_factory=list)
    # U55 rounded right shifts made floor shifts (floor_right_shifts).
    floored_shifts: list[str] = dataclasses.field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether any workaround changed the graph (the summary lists it then)."""
        return bool(self.nodes or self.rescaled_negates or self.floored_shifts)

    def as_summary(self) -> dict:
        summary: dict = {"name": self.name, "nodes": list(self.nodes)}
        if self.after_reshape:
            summary["after_reshape"] = list(self.after_reshape)
        if self.rescaled_negates:
            summary["rescaled_negates"] = list(self.rescaled_negates)
        if self.floored_shifts:
            summary["floored_shifts"] = list(self.floored_shifts)
        return summary


@contextlib.contextmanager
def clamp_fused_activations() -> Iterator[Applied]:
    """Within the block, each convolution/linear output RESCALE whose
    quantization range is narrower than its dtype is followed by a CLAMP to
    that range, each 16-bit NEGATE between two scales by its RESCALE, and
    each U55 right shift floors (see the module doc)."""
    from executorch.backends.arm._passes.arm_pass_utils import create_node
    from executorch.backends.arm._passes.rewrite_conv_pass import RewriteConvPass
    from executorch.exir.dialects._ops import ops as exir_ops

    applied = Applied()
    original = RewriteConvPass.insert_output_rescale

    def insert_output_rescale(self, graph_module, source_node, conv_node, conv_fake_tensor):
        rescale, fake = original(self, graph_module, source_node, conv_node, conv_fake_tensor)
        qparams = self._get_effective_output_qparams(source_node)[0]
        if qparams.dtype not in _CLAMPED_DTYPES:
            return rescale, fake
        info = torch.iinfo(qparams.dtype)
        if qparams.qmin <= info.min and qparams.qmax >= info.max:
            return rescale, fake
        rescale.meta["val"] = fake  # the caller sets it only on the node returned
        with graph_module.graph.inserting_after(rescale):
            clamp = create_node(
                graph=graph_module.graph,
                op_target=exir_ops.backend.tosa.CLAMP.default,
                args=(rescale, int(qparams.qmin), int(qparams.qmax)),
                from_node=source_node,
            )
        clamped = exir_ops.backend.tosa.CLAMP.default(fake, int(qparams.qmin), int(qparams.qmax))
        clamp.meta["val"] = clamped
        applied.nodes.append(source_node.name)
        return clamp, clamped

    def after_backend_pipeline(tosa_spec, exported_program, graph_module) -> None:
        if applied.nodes and vela_faults.applies(vela_faults.LINEAR_CLAMP):
            applied.after_reshape.extend(vela_workarounds.clamps_after_reshapes(graph_module))
        applied.rescaled_negates.extend(rescale_negates(graph_module))
        if tosa_spec.is_U55_subset:
            applied.floored_shifts.extend(floor_right_shifts(exported_program, graph_module))

    RewriteConvPass.insert_output_rescale = insert_output_rescale
    try:
        with vela_workarounds.after_backend_pipeline_of(after_backend_pipeline):
            yield applied
    finally:
        RewriteConvPass.insert_output_rescale = original


def floor_right_shifts(exported_program, graph_module: torch.fx.GraphModule) -> list[str]:
    """ExecuTorch 1.5.1's U55 right shift (module doc): each int32
    ARITHMETIC_RIGHT_SHIFT(x, s), which the U55 serializes with round =
    True, shifts x - c instead, c = ARITHMETIC_RIGHT_SHIFT(SHL(1, s) - 1, 1)
    (2^(s-1), or 0 for s = 0, itself rounded): floor(x / 2^s), PyTorch's
    `>>`. Returns the shifts rewritten."""
    from executorch.backends.transforms.utils import create_constant_placeholder
    from executorch.exir.dialects._ops import ops as exir_ops
    from torch.export.graph_signature import InputKind

    shift_op = exir_ops.backend.tosa.ARITHMETIC_RIGHT_SHIFT.default
    graph = graph_module.graph
    floored = []
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target != shift_op:
            continue
        x, s = node.args[:2]
        values = [n.meta.get("val") for n in (x, s)]
        if any(v is None or v.dtype != torch.int32 for v in values):
            continue
        with graph.inserting_before(next(iter(graph.nodes))):
            one = create_constant_placeholder(
                exported_program,
                graph,
                node.name + "_one",
                InputKind.CONSTANT_TENSOR,
                torch.ones([1] * values[1].dim(), dtype=torch.int32),
            )
        with graph.inserting_before(node):
            sub = exir_ops.backend.tosa.SUB.default
            power = _step(node, exir_ops.backend.tosa.LOGICAL_LEFT_SHIFT.default, (one, s), s)  # 2^s
            below_power = _step(node, sub, (power, one), s)  # 2^s - 1
            half = _step(node, shift_op, (below_power, one), s)  # rounded: 2^(s-1), 0 for s = 0
            below = _step(node, sub, (x, half), node)
        node.args = (below, s) + tuple(node.args[2:])
        floored.append(node.name)
    if floored:
        graph_module.recompile()
    return floored


def _step(origin: torch.fx.Node, target, args: tuple, like: torch.fx.Node) -> torch.fx.Node:
    """A node of `origin`'s lowering before the insertion point, with the
    shape and dtype of `like`."""
    from executorch.backends.arm._passes.arm_pass_utils import create_node

    made = create_node(origin.graph, target, args=args, from_node=origin)
    made.meta["val"] = like.meta["val"]
    return made


def rescale_negates(graph_module: torch.fx.GraphModule) -> list[str]:
    """ExecuTorch 1.5.1's 16-bit neg (module doc): `op_tosa_neg.py` emits
    NEGATE with zero points 0 and no RESCALE, though
    the quantizer gives neg's input and output scales of their own. On the
    backend graph, each int16 NEGATE whose scales differ (both zero points
    0, as A16W8's symmetric quantization makes them) gets a RESCALE by
    input scale / output scale after it: -q * s_in / s_out, what PyTorch's
    quantized graph computes. Returns the NEGATEs rescaled."""
    from executorch.backends.arm._passes.arm_pass_utils import create_node
    from executorch.exir.dialects._ops import ops as exir_ops

    rescaled = []
    graph = graph_module.graph
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target != exir_ops.backend.tosa.NEGATE.default:
            continue
        inputs, outputs = node.meta.get("input_qparams") or {}, node.meta.get("output_qparams") or {}
        if 0 not in inputs or 0 not in outputs:
            continue
        q_in, q_out = inputs[0], outputs[0]
        if any(q.dtype != torch.int16 or q.per_channel or q.zp != 0 for q in (q_in, q_out)):
            continue
        ratio = float(q_in.scale) / float(q_out.scale)
        if ratio == 1.0:
            continue
        users = list(node.users)
        with graph.inserting_after(node):
            rescale = create_node(
                graph=graph,
                op_target=exir_ops.backend.tosa.RESCALE.default,
                args=(node, torch.int16, [ratio], 0, 0),
                from_node=node,
            )
        rescale.meta["val"] = node.meta["val"]
        for user in users:
            user.replace_input_with(node, rescale)
        rescaled.append(node.name)
    if rescaled:
        graph_module.recompile()
    return rescaled
