"""A model file whose ModelInputs hold values besides the tensors, as
ExecuTorch's operator tests pass them: an int, a list of ints, None and a
list of tensors. The SDK bakes the non-tensor values in as constants (as
torch.export does) and feeds the two tensors."""

import torch
from torch import nn


class ScaledConcat(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 1)

    def forward(self, pair: list[torch.Tensor], shift: int, dims: list[int], bias: torch.Tensor | None) -> torch.Tensor:
        assert bias is None
        y = torch.cat(pair, dim=1) + shift
        return torch.relu(self.conv(y)).mean(dim=dims)


ModelUnderTest = ScaledConcat().eval()
ModelInputs = ([torch.randn(1, 2, 8, 8), torch.randn(1, 2, 8, 8)], 1, [2, 3], None)
