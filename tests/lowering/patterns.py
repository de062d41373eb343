"""The pattern sweep's models (tests/lowering/sweep_test.py): small quantized
patterns `consumer(activation(producer(x)))`, many per model so one lowering
checks many.

One model per producer holds a branch per (activation, consumer), each with
its own producer instance (ExecuTorch fuses an activation only into a
producer with one user) under the module path `<activation>_<consumer>`,
which names the pattern in the verification's tables. Zero points: a
concatenation with the signed input shares one quantization, so the
activation's output zero point lies above qmin; alone (output, pool, add,
mul) it is at qmin for int8; A16W8's symmetric int16 puts it at 0, above
qmin, everywhere.
"""

from __future__ import annotations

import torch
from torch import nn

CHANNELS = 8
SIZE = 8  # height = width = CHANNELS keeps nn.Linear on the last axis 4-D
PRODUCERS = ("conv", "depthwise", "linear", "add", "matmul")
ACTIVATIONS = ("relu", "relu6", "hardtanh01", "clamp0")
CONSUMERS = ("cat", "add", "mul", "pool", "output")


class Clamp0(nn.Module):
    """torch.clamp from 0 (ExecuTorch fuses it like a ReLU where it can)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.clamp(x, min=0.0)


def _activation(name: str) -> nn.Module:
    return {"relu": nn.ReLU(), "relu6": nn.ReLU6(), "hardtanh01": nn.Hardtanh(0.0, 1.0), "clamp0": Clamp0()}[name]


class Producer(nn.Module):
    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind
        if kind == "conv":
            self.op = nn.Conv2d(CHANNELS, CHANNELS, 1)
        elif kind == "depthwise":
            self.op = nn.Conv2d(CHANNELS, CHANNELS, 3, padding=1, groups=CHANNELS)
        elif kind in ("linear", "add"):
            self.op = nn.Linear(SIZE, SIZE)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.kind == "add":
            return x + self.op(x)
        if self.kind == "matmul":
            return torch.matmul(x, x.transpose(-1, -2))
        return self.op(x)


class Pattern(nn.Module):
    def __init__(self, producer: str, activation: str, consumer: str) -> None:
        super().__init__()
        self.producer = Producer(producer)
        self.act = _activation(activation)
        self.consumer = consumer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.act(self.producer(x))
        if self.consumer == "cat":
            return torch.cat([x, y], 1)
        if self.consumer == "add":
            return y + x
        if self.consumer == "mul":
            return y * x
        if self.consumer == "pool":
            return nn.functional.avg_pool2d(y, 2)
        return y


# npu_run compares at most 16 delegate outputs: two models per producer,
# each with half the activations (ten patterns).
GROUPS = (ACTIVATIONS[:2], ACTIVATIONS[2:])


class Sweep(nn.Module):
    """Every (activation, consumer) pattern of one producer and activation
    group, one output each."""

    def __init__(self, producer: str, activations: tuple[str, ...]) -> None:
        super().__init__()
        self.patterns = nn.ModuleDict({f"{a}_{c}": Pattern(producer, a, c) for a in activations for c in CONSUMERS})

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return tuple(p(x) for p in self.patterns.values())


def build(producer: str, group: int) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return Sweep(producer, GROUPS[group]).eval(), (torch.randn(1, CHANNELS, SIZE, SIZE),)


def model_name(producer: str, group: int) -> str:
    """The `patterns:<function>` that builds (producer, group)."""
    return f"patterns:{producer}_{group}"


def _builder(producer: str, group: int):
    return lambda: build(producer, group)


def linear_relu_cat() -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """One pattern alone: the reproducer of Vela's linear CLAMP issue
    (python/ethosu_sdk/aot/workarounds/vela_workarounds.py, `clamps_after_reshapes`)."""
    torch.manual_seed(0)
    return Pattern("linear", "relu", "cat").eval(), (torch.randn(1, CHANNELS, SIZE, SIZE),)


for _producer in PRODUCERS:
    for _group in range(len(GROUPS)):
        globals()[f"{_producer}_{_group}"] = _builder(_producer, _group)
