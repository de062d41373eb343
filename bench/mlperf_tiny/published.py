"""The best published MLPerf Tiny closed-division results per Cortex-M core,
as cycles on silicon (latency x clock), as issue 48 lists them from
MLCommons' tiny_results v1.1-v1.3. Millions of cycles per inference."""

from __future__ import annotations

import dataclasses

SOURCE = (
    "MLCommons Tiny, tiny_results v1.1-v1.3, closed division: best latency per core, "
    "times the board's clock (cycles on silicon)"
)


@dataclasses.dataclass(frozen=True)
class Published:
    target: str  # the SDK target with that core
    board: str  # the silicon that ran it, and its clock
    stack: str
    mcycles: dict[str, float]  # model (cells.bzl name) -> millions of cycles


PUBLISHED = [
    Published(
        "cortex-m85",
        "RA8D1, 480 MHz",
        "TFLM + CMSIS-NN",
        {"ds_cnn_kws": 1.66, "mobilenet_v1_025_vww": 6.43, "resnet8_ic": 4.07, "deep_autoencoder_ad": 0.25},
    ),
    Published(
        "cortex-m7",
        "H7A3ZI, 280 MHz",
        "X-CUBE-AI 9.0",
        {"ds_cnn_kws": 3.17, "mobilenet_v1_025_vww": 6.67, "resnet8_ic": 11.4, "deep_autoencoder_ad": 0.34},
    ),
    Published(
        "cortex-m33",
        "U575ZI, 160 MHz",
        "X-CUBE-AI 10.2",
        {"ds_cnn_kws": 4.64, "mobilenet_v1_025_vww": 9.48, "resnet8_ic": 17.5, "deep_autoencoder_ad": 0.51},
    ),
    Published(
        "cortex-m4",
        "L4R5ZI, 120 MHz",
        "X-CUBE-AI 10.2",
        {"ds_cnn_kws": 5.21, "mobilenet_v1_025_vww": 10.7, "resnet8_ic": 19.9, "deep_autoencoder_ad": 0.58},
    ),
]

BY_TARGET = {p.target: p for p in PUBLISHED}
