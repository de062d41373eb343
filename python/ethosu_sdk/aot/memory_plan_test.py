"""memory_plan: the depthwise lead against a simulation of the kernels'
documented access order, and the plan of a small cortex_m program checked
by a verifier of its own (every two tensors alive together and sharing bytes
are an overlap the kernels allow) and against ExecuTorch's greedy planner."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
import torch
from torch import nn

from ethosu_sdk.aot import cortex_m, memory_plan


def _first_clobbered_read(in_hw, out_hw, kernel, stride, pad, dilation, lead: int) -> bool:
    """Simulates one channel of a depthwise kernel in the order
    conv_params.h documents (output pixels in increasing order, each one's
    taps read before it is written), the output `lead` pixels before the
    input. True when some read meets a pixel already overwritten."""
    (h_in, w_in), (h_out, w_out) = in_hw, out_hw
    written: set[int] = set()  # input pixel indices the output has overwritten
    for oh, ow in itertools.product(range(h_out), range(w_out)):
        for kh, kw in itertools.product(range(kernel[0]), range(kernel[1])):
            ih, iw = oh * stride[0] - pad[0] + kh * dilation[0], ow * stride[1] - pad[1] + kw * dilation[1]
            if 0 <= ih < h_in and 0 <= iw < w_in and ih * w_in + iw in written:
                return True
        written.add(oh * w_out + ow - lead)
    return False


def _out(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def test_mobilenet_leads() -> None:
    # Stride 2, pad 1, 3x3 runs in place; stride 1 needs one row and one pixel.
    assert memory_plan.depthwise_lead((1, 112, 112), (1, 56, 56), (3, 3), (2, 2), (1, 1), (1, 1)) == 0
    assert memory_plan.depthwise_lead((1, 112, 112), (1, 112, 112), (3, 3), (1, 1), (1, 1), (1, 1)) == 113


def test_lead_is_the_least_safe_one() -> None:
    draw = random.Random(7)
    checked = 0
    while checked < 150:
        k = (draw.randint(1, 3), draw.randint(1, 3))
        s, d = (draw.randint(1, 2), draw.randint(1, 2)), (draw.randint(1, 2), draw.randint(1, 2))
        p = (draw.randint(0, k[0] - 1), draw.randint(0, k[1] - 1))
        h, w = draw.randint(1, 12), draw.randint(1, 12)
        oh, ow = _out(h, k[0], s[0], p[0], d[0]), _out(w, k[1], s[1], p[1], d[1])
        if oh < 1 or ow < 1:
            continue
        checked += 1
        lead = max(memory_plan.depthwise_lead((1, h, w), (1, oh, ow), k, s, p, d), 0)
        args = ((h, w), (oh, ow), k, s, p, d)
        assert not _first_clobbered_read(*args, lead), args
        assert not _first_clobbered_read(*args, lead + 3), args
        if lead > 0:
            assert _first_clobbered_read(*args, lead - 1), args


class _Block(nn.Module):
    """MobileNetV2's block in small: an expansion, stride-1 and stride-2
    depthwise convolutions (the peak: the expansion's output and the
    stride-1 output, unless they overlap), a residual add."""

    def __init__(self) -> None:
        super().__init__()
        self.expand = nn.Conv2d(4, 48, 1)
        self.dw1 = nn.Conv2d(48, 48, 3, 1, 1, groups=48)
        self.dw2 = nn.Conv2d(48, 48, 3, 2, 1, groups=48)
        self.branch = nn.Conv2d(48, 48, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.dw2(torch.relu(self.dw1(torch.relu(self.expand(x)))))
        return y + self.branch(y)


@pytest.fixture(scope="module")
def lowered() -> cortex_m.CortexMLowered:
    torch.manual_seed(0)
    x = torch.randn(1, 4, 12, 12)
    return cortex_m.lower(cortex_m.quantize(_Block().eval(), (x,)), (x,), "cortex-m33", int8_io=True)


def _planned(graph_module: torch.fx.GraphModule) -> set[Any]:
    specs = set()
    for node in graph_module.graph.nodes:
        spec = node.meta.get("spec")
        if type(spec).__name__ == "TensorSpec" and spec.mem_id == 1 and spec.mem_offset is not None:
            specs.add(spec)
    return specs


def test_program_shares_only_what_the_kernels_allow(lowered: cortex_m.CortexMLowered) -> None:
    from executorch.exir.memory_planning import get_input_specs

    program: Any = lowered.program
    graph_module = program.exported_program().graph_module
    specs = _planned(graph_module)
    allowed = {}
    for o in memory_plan.find_overlaps(graph_module, specs, get_input_specs(graph_module)):
        allowed[(o.source, o.result)] = o
    kinds = {(tuple(o.source.shape), tuple(o.result.shape)) for o in allowed.values()}
    # Both depthwise convolutions and the add (over either operand) qualify.
    assert ((1, 48, 12, 12), (1, 48, 12, 12)) in kinds
    assert ((1, 48, 12, 12), (1, 48, 6, 6)) in kinds
    assert ((1, 48, 6, 6), (1, 48, 6, 6)) in kinds
    shared = 0
    for a, b in itertools.combinations(specs, 2):
        alive = not (a.lifetime[1] < b.lifetime[0] or b.lifetime[1] < a.lifetime[0])
        apart = a.mem_offset + a.allocated_memory <= b.mem_offset or b.mem_offset + b.allocated_memory <= a.mem_offset
        if not alive or apart:
            continue
        rule = allowed.get((a, b)) or allowed.get((b, a))
        assert rule is not None, (a, b)
        lead = rule.source.mem_offset - rule.result.mem_offset
        assert lead >= rule.lead_bytes and (lead - rule.lead_bytes) % rule.step == 0
        shared += 1
    assert shared == 3  # both depthwise convolutions and the add over their inputs


def test_plan_is_smaller_than_greedy(lowered: cortex_m.CortexMLowered) -> None:
    from executorch.exir.memory_planning import greedy

    program: Any = lowered.program
    graph_module = program.exported_program().graph_module
    planned = program.executorch_program.execution_plan[0].non_const_buffer_sizes[1]
    assert planned < greedy(16, _planned(graph_module), graph_module, None).bufsizes[1]
