"""MobileNetV2 with torchvision's module layout (features.N.conv..., classifier.1),
written here because torchvision is not in the SDK's environment. Weights
are random but deterministic for a given torch seed."""

from typing import List

import torch
from torch import nn


def _conv_bn_relu6(cin: int, cout: int, kernel: int, stride: int, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride, (kernel - 1) // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU6(inplace=False),
    )


class InvertedResidual(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, expand_ratio: int) -> None:
        super().__init__()
        hidden = cin * expand_ratio
        self.use_res_connect = stride == 1 and cin == cout
        layers: List[nn.Module] = []
        if expand_ratio != 1:
            layers.append(_conv_bn_relu6(cin, hidden, 1, 1))
        layers += [
            _conv_bn_relu6(hidden, hidden, 3, stride, groups=hidden),
            nn.Conv2d(hidden, cout, 1, 1, 0, bias=False),
            nn.BatchNorm2d(cout),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileNetV2(nn.Module):
    # (expand ratio, channels, repeats, first stride), as in the paper.
    SETTINGS = [
        (1, 16, 1, 1),
        (6, 24, 2, 2),
        (6, 32, 3, 2),
        (6, 64, 4, 2),
        (6, 96, 3, 1),
        (6, 160, 3, 2),
        (6, 320, 1, 1),
    ]

    def __init__(self, num_classes: int = 1000) -> None:
        super().__init__()
        features: List[nn.Module] = [_conv_bn_relu6(3, 32, 3, 2)]
        cin = 32
        for t, c, n, s in self.SETTINGS:
            for i in range(n):
                features.append(InvertedResidual(cin, c, s if i == 0 else 1, t))
                cin = c
        features.append(_conv_bn_relu6(cin, 1280, 1, 1))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(1280, num_classes))
        # Non-trivial batch-norm statistics so folding is exercised.
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.data.uniform_(0.5, 1.5)
                m.bias.data.uniform_(-0.1, 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        x = nn.functional.adaptive_avg_pool2d(x, (1, 1))
        x = torch.flatten(x, 1)
        return self.classifier(x)
