"""Lowers the latency benchmark's CPU-only model (no delegate) to a .pte.

A small float CNN with the operators CPU-only lowerings leave on the CPU:
convolutions (dense, depthwise, pointwise), hardtanh, max and average
pooling, mean, a linear layer and softmax; about 7 MMAC on a 1x3x48x48 input.

    make_bench_model --pte=bench_cnn.pte --input=bench_cnn.tensors
"""

from __future__ import annotations

from typing import List

import torch
from absl import app, flags
from executorch.exir import EdgeCompileConfig, to_edge
from make_programs import tensor_file

FLAGS = flags.FLAGS
flags.DEFINE_string("pte", None, "Output .pte path.")
flags.DEFINE_string("input", None, "Output .tensors path.")


class BenchCnn(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.dw1 = torch.nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.pw1 = torch.nn.Conv2d(16, 32, 1)
        self.dw2 = torch.nn.Conv2d(32, 32, 3, stride=2, padding=1, groups=32)
        self.pw2 = torch.nn.Conv2d(32, 64, 1)
        self.conv3 = torch.nn.Conv2d(64, 64, 3, padding=1)
        self.fc = torch.nn.Linear(64, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        act = torch.nn.functional.hardtanh
        x = act(self.stem(x), 0.0, 6.0)
        x = act(self.pw1(act(self.dw1(x), 0.0, 6.0)), 0.0, 6.0)
        x = torch.nn.functional.max_pool2d(x, 2)
        x = act(self.pw2(act(self.dw2(x), 0.0, 6.0)), 0.0, 6.0)
        x = torch.nn.functional.avg_pool2d(torch.relu(self.conv3(x)), 2)
        return torch.softmax(self.fc(x.mean(dim=(2, 3))), dim=-1)


def main(argv: List[str]) -> None:
    del argv
    torch.manual_seed(0)
    model = BenchCnn().eval()
    inputs = (torch.randn(1, 3, 48, 48),)
    edge = to_edge(torch.export.export(model, inputs), compile_config=EdgeCompileConfig(_check_ir_validity=False))
    with open(FLAGS.pte, "wb") as f:
        f.write(edge.to_executorch().buffer)
    with open(FLAGS.input, "wb") as f:
        f.write(tensor_file(list(inputs)))


if __name__ == "__main__":
    flags.mark_flags_as_required(["pte", "input"])
    app.run(main)
