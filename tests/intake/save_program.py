"""Writes a float torch.export program (.pt2), as a user hands one over:
a small residual network exported with its example input and saved with
torch.export.save."""

import torch
from absl import app, flags
from torch import nn

FLAGS = flags.FLAGS
flags.DEFINE_string("out", None, "Where to write the .pt2.", required=True)
flags.DEFINE_bool(
    "with_constants",
    False,
    "Export WithConstants, whose example inputs hold a float, a list, an int and None beside the "
    "tensor (torch.export bakes them in).",
)


class Residual(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(8, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.stem = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.stem(x))
        y = torch.relu(y + self.conv2(torch.relu(self.conv1(y))))
        return self.fc(y.mean(dim=(2, 3)))


class WithConstants(nn.Module):
    """Non-tensor inputs, as ExecuTorch's operator tests pass them."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)

    def forward(
        self, x: torch.Tensor, alpha: float, dims: list[int], shift: int, mask: torch.Tensor | None
    ) -> torch.Tensor:
        assert mask is None
        return torch.relu(self.conv(x) * alpha + shift).mean(dim=dims)


def main(argv: list[str]) -> None:
    del argv
    torch.manual_seed(7)
    if FLAGS.with_constants:
        model: nn.Module = WithConstants().eval()
        inputs: tuple = (torch.randn(1, 1, 16, 16), 0.5, [2, 3], 1, None)
    else:
        model, inputs = Residual().eval(), (torch.randn(1, 1, 16, 16),)
    program = torch.export.export(model, inputs)
    torch.export.save(program, FLAGS.out)


if __name__ == "__main__":
    app.run(main)
