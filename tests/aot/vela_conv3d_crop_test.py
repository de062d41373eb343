"""Vela's CONV3D-reading-a-SLICE fault (5.1.0, 5.2.0; python/ethosu_sdk/aot/workarounds/vela_refusals.py)
and the crop on the CPU that avoids it (vela_conv3d_crop.py): the crop is
exact against PyTorch's own Conv3d, applied only where ExecuTorch would
crop, and without it the build stops with one line naming the fault. That
the cropped program is bit-exact is checked by the build-time verification
against the TOSA reference model and on QEMU
(//tests/conformance:conv3d_st3_cropped_u85_test)."""

from __future__ import annotations

import os

import pytest
import torch
from absl import flags
from torch import nn

from ethosu_sdk.aot import export
from ethosu_sdk.aot.workarounds import vela_conv3d_crop, vela_faults
from ethosu_sdk.cli import aot_compile


def _exported(module: nn.Module, shape: tuple[int, ...]) -> torch.fx.GraphModule:
    return export.export_for_quantization(module, (torch.randn(shape),))


def test_crop_is_exact() -> None:
    torch.manual_seed(0)
    conv = nn.Conv3d(3, 4, 3, stride=3)
    graph_module = _exported(conv, (1, 3, 8, 9, 8))
    assert vela_conv3d_crop.crop_conv3d_inputs(graph_module) == ["conv3d"]
    slices = [n for n in graph_module.graph.nodes if n.target is torch.ops.aten.slice.Tensor]
    assert [(n.args[1], n.args[3]) for n in slices] == [(2, 6), (4, 6)]  # depth 8 -> 6, width 8 -> 6
    for seed in range(3):
        x = torch.randn((1, 3, 8, 9, 8), generator=torch.Generator().manual_seed(seed))
        with torch.no_grad():
            assert torch.equal(graph_module(x), conv(x))


@pytest.mark.parametrize(
    "conv, shape",
    [
        (nn.Conv3d(3, 3, 3, stride=3), (1, 3, 6, 9, 6)),  # sizes the stride divides
        (nn.Conv3d(3, 3, 3, stride=2, padding=1), (1, 3, 8, 8, 8)),  # remainder within the padding
        (nn.Conv2d(3, 3, 3, stride=3), (1, 3, 8, 8)),  # 2-D: Vela reads its slices correctly
    ],
)
def test_nothing_to_crop(conv: nn.Module, shape: tuple[int, ...]) -> None:
    graph_module = _exported(conv, shape)
    before = str(graph_module.graph)
    assert vela_conv3d_crop.crop_conv3d_inputs(graph_module) == []
    assert str(graph_module.graph) == before


@pytest.mark.skipif(
    not vela_faults.applies(vela_faults.CONV3D_SLICE),
    reason="the installed Vela compiles it (vela_faults_installed_test checks), so nothing is refused",
)
def test_without_the_crop_the_fault_is_named(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(vela_conv3d_crop, "crop_conv3d_inputs", lambda graph_module: [])
    monkeypatch.setattr(vela_conv3d_crop, "keep_crops_on_cpu", lambda: [])
    argv = [
        "aot_compile",
        "--model=aot_test_models:conv3d_cropped",
        "--target=ethos-u85-256",
        f"--output={tmp_path}/m.pte",
    ]
    flags.FLAGS.unparse_flags()
    flags.FLAGS(argv)
    code = aot_compile.main(argv[:1])
    err = capsys.readouterr().err
    assert code != 0
    assert (
        f"Vela {vela_faults.installed_version()} miscompiles CONV3D" in err
        and "(1, 8, 9, 8, 3) -> (1, 6, 9, 6, 3)" in err
    )
    assert os.listdir(tmp_path) == []
