"""Bazel enforces sim/npu's layers (sim/npu/README.md).

Each layer is a cc_library whose deps are the layers below it, and a C++
compile action in Bazel sees only the headers its target declares. So a
file including a header of a higher layer fails to build. This test shows
it with the real toolchain and the real header sets: for every layer it
compiles a probe with only the headers that layer's compile actions get
(`layer_headers.bzl`): one of the layer's own headers compiles, and a header
of a layer above it is not found.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import pytest

# layer: (a header of its own, headers of layers it must not reach)
CASES: dict[str, tuple[str, list[str]]] = {
    "types": ("types.h", ["commands/register_file.h", "model.h"]),
    "commands": ("commands/register_file.h", ["memory/feature_map.h"]),
    "memory": ("memory/feature_map.h", ["output/output_stage.h", "weights/weight_cache.h"]),
    # output and weights both sit on memory and do not see each other.
    "output": ("output/output_stage.h", ["weights/weight_cache.h", "operations/operation.h"]),
    "weights": ("weights/weight_cache.h", ["output/output_stage.h", "operations/operation.h"]),
    "operations": ("operations/operation.h", ["kernels/run_kernel.h"]),
    "kernels": ("kernels/run_kernel.h", ["model.h"]),
}


def compile_probe(layer: str, header: str, tmp_path: pathlib.Path) -> subprocess.CompletedProcess[str]:
    """Compiles `#include "sim/npu/<header>"` with only `layer`'s headers."""
    manifest = pathlib.Path(f"sim/tests/npu_{layer}_headers.txt").read_text().split()
    compiler, headers = manifest[0], manifest[1:]
    root = tmp_path / "include"
    for short_path in headers:
        (root / short_path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(short_path, root / short_path)
    probe = tmp_path / "probe.cc"
    probe.write_text(f'#include "sim/npu/{header}"\n')
    return subprocess.run(
        [compiler, "-x", "c++", "-std=c++17", "-fsyntax-only", f"-I{root}", str(probe)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("layer", sorted(CASES))
def test_a_layer_builds_on_its_own_headers(layer: str, tmp_path: pathlib.Path) -> None:
    result = compile_probe(layer, CASES[layer][0], tmp_path)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("layer", sorted(CASES))
def test_a_wrong_way_include_does_not_build(layer: str, tmp_path: pathlib.Path) -> None:
    for higher in CASES[layer][1]:
        result = compile_probe(layer, higher, tmp_path / higher.replace("/", "_"))
        assert result.returncode != 0, f"{layer} reached sim/npu/{higher}: a dep runs upwards"
        assert f"sim/npu/{higher}" in result.stderr, result.stderr
