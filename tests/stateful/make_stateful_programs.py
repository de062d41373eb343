"""Generates CPU-only ExecuTorch programs whose state persists across calls:
mutable buffers (`register_buffer` updated in place), and a sequence of
inputs to call them with.

    make_stateful_programs --out_dir=DIR   # DIR/<name>.pte, DIR/<name>.tensors

`<name>.tensors` holds CALLS x (the method's inputs), call after call: the
runner runs one call per group, in order, on one loaded method, so each call
sees the buffers the previous one left (cc/runner/PROTOCOL.md, sequences).
Programs are lowered with ExecuTorch's default memory planning, which plans
mutable buffers for the whole program so no other tensor reuses their bytes.
"""

from __future__ import annotations

import os
from typing import Callable, Dict, List, Tuple

import torch
from absl import app, flags
from executorch.exir import ExecutorchBackendConfig, to_edge
from executorch.exir.passes.init_mutable_pass import InitializedMutableBufferPass

from ethosu_sdk.tensors.tensor_file import encode

FLAGS = flags.FLAGS
flags.DEFINE_string("out_dir", None, "Directory for the .pte and .tensors files.")

CALLS = 6  # calls per sequence
CACHE_LENGTH = 8  # positions of the toy KV cache


class Counter(torch.nn.Module):
    """A running counter and an exponential moving average of the input."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("count", torch.zeros(1))
        self.register_buffer("average", torch.zeros(4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.count.add_(1.0)
        self.average.mul_(0.5).add_(x * 0.5)
        return self.average * self.count


class Recurrent(torch.nn.Module):
    """An Elman cell: h = tanh(W x + U h + b), h kept between calls."""

    def __init__(self) -> None:
        super().__init__()
        generator = torch.Generator().manual_seed(0)
        self.w = torch.nn.Parameter(torch.randn(8, 4, generator=generator) * 0.5)
        self.u = torch.nn.Parameter(torch.randn(8, 8, generator=generator) * 0.5)
        self.b = torch.nn.Parameter(torch.randn(8, generator=generator) * 0.1)
        self.register_buffer("h", torch.zeros(1, 8))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(x @ self.w.T + self.h @ self.u.T + self.b)
        self.h.copy_(h)
        return h


class InitializedState(torch.nn.Module):
    """An int32 accumulator whose initial state is not zero: ExecuTorch's
    InitializedMutableBufferPass stores it in the program's mutable data
    segment, and the runtime copies it in at load."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("total", torch.arange(100, 104, dtype=torch.int32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.total.add_(x)
        return self.total * 2


class PositionCache(torch.nn.Module):
    """The shape of a KV cache: a buffer written at the position an input
    gives (index_put_, in place once ExecuTorch reinplaces it), then read
    whole through a mask of the positions written so far."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("cache", torch.zeros(CACHE_LENGTH, 4))

    def forward(self, value: torch.Tensor, position: torch.Tensor) -> torch.Tensor:
        self.cache.index_put_((position,), value)
        seen = torch.arange(CACHE_LENGTH) <= position
        return (self.cache * seen.unsqueeze(1)).sum(dim=0)


def _sequence(seed: int, shape: Tuple[int, ...]) -> List[Tuple[torch.Tensor, ...]]:
    generator = torch.Generator().manual_seed(seed)
    return [(torch.randn(shape, generator=generator),) for _ in range(CALLS)]


def _positions() -> List[Tuple[torch.Tensor, ...]]:
    generator = torch.Generator().manual_seed(3)
    return [(torch.randn(1, 4, generator=generator), torch.tensor([p])) for p in range(CALLS)]


def _integers() -> List[Tuple[torch.Tensor, ...]]:
    return [(torch.full((4,), call + 1, dtype=torch.int32),) for call in range(CALLS)]


# name -> (module, calls, buffers given an initial state, reinplace index_put)
PROGRAMS: Dict[str, Callable[[], Tuple[torch.nn.Module, List[Tuple[torch.Tensor, ...]], List[str], bool]]] = {
    "counter_f32": lambda: (Counter(), _sequence(1, (4,)), [], False),
    "recurrent_f32": lambda: (Recurrent(), _sequence(2, (1, 4)), [], False),
    "initialized_i32": lambda: (InitializedState(), _integers(), ["total"], False),
    "position_cache_f32": lambda: (PositionCache(), _positions(), [], True),
}


def lower(name: str) -> Tuple[bytes, List[Tuple[torch.Tensor, ...]]]:
    """The program's .pte and its sequence of calls."""
    module, calls, initialized, reinplace = PROGRAMS[name]()
    module.eval().requires_grad_(False)  # an inference program: weights are constants
    exported = torch.export.export(module, calls[0])
    config = ExecutorchBackendConfig(
        passes=[InitializedMutableBufferPass(initialized)] if initialized else [],
        run_reinplace_pass=reinplace,
    )
    return to_edge(exported).to_executorch(config).buffer, calls


def sequence_file(calls: List[Tuple[torch.Tensor, ...]]) -> bytes:
    """One tensor file: every call's inputs, call after call."""
    return encode([t.numpy() for call in calls for t in call])


def main(argv: List[str]) -> None:
    del argv
    os.makedirs(FLAGS.out_dir, exist_ok=True)
    for name in PROGRAMS:
        pte, calls = lower(name)
        with open(os.path.join(FLAGS.out_dir, name + ".pte"), "wb") as f:
            f.write(pte)
        with open(os.path.join(FLAGS.out_dir, name + ".tensors"), "wb") as f:
            f.write(sequence_file(calls))


if __name__ == "__main__":
    flags.mark_flag_as_required("out_dir")
    app.run(main)
