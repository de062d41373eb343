"""The simulator's include layering (sim/README.md, sim/npu/README.md).

Every `#include "sim/..."` in the simulator's C++ must run from a higher
layer to a lower one (or stay inside its own layer):

- between components: `npu` below `device` and `host`, which do not include
  each other, and nothing in them includes `sim/tests`;
- inside the functional model (sim/npu), from the bottom: the types and
  configuration (`types.h`, `configs.*`, `stream_error.*`), `commands/`,
  `memory/`, `output/`, `weights/`, `operations/`, `kernels/`, and the API
  (`model.h`, `model.cc`) on top. Unit tests use cc/testing, outside the
  simulator, and may drive their layer through the API above it (dma_test).
  Each layer is also a cc_library whose deps are the layers below, so Bazel
  refuses a wrong-way include (//sim/tests:npu_layers_test shows it); this
  check names the offending line.

A file in a folder no layer names fails the test, so a new folder gets a
place in the order before it gets code.

The seam between the firmware stack and the simulator runs one way:
`sim/host` builds on `cc/`, and no file under `cc/` includes `sim/`.
"""

from __future__ import annotations

import pathlib
import re

import pytest

INCLUDE = re.compile(r'^\s*#\s*include\s+"(sim/[^"]+)"', re.MULTILINE)

# The functional model's layers, lowest first: a path prefix inside sim/npu
# (a folder with "/", or one file) and the layer it belongs to.
NPU_LAYERS: list[tuple[str, list[str]]] = [
    ("types", ["types.h", "configs.h", "configs.cc", "stream_error.h", "stream_error.cc"]),
    ("commands", ["commands/"]),
    ("memory", ["memory/"]),
    ("output", ["output/"]),
    ("weights", ["weights/"]),
    ("operations", ["operations/"]),
    ("kernels", ["kernels/"]),
    ("model", ["model.h", "model.cc"]),
]

# Components: which other components each may include.
COMPONENTS: dict[str, set[str]] = {
    "npu": set(),
    "device": {"npu"},
    "host": {"npu"},
}


def npu_layer(path: str) -> int:
    """The layer index of a path inside sim/npu ("kernels/dma.cc")."""
    for index, (_, prefixes) in enumerate(NPU_LAYERS):
        for prefix in prefixes:
            if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
                return index
    raise AssertionError(
        f"sim/npu/{path} is in no layer: add its folder to NPU_LAYERS in "
        "sim/tests/layering_test.py and to sim/npu/README.md"
    )


def sources() -> list[pathlib.Path]:
    files = sorted(
        p for component in COMPONENTS for p in pathlib.Path("sim", component).rglob("*") if p.suffix in (".h", ".cc")
    )
    assert len(files) > 50, f"only {len(files)} simulator sources in the runfiles"
    return files


def violations(path: pathlib.Path, text: str) -> list[str]:
    parts = path.parts  # ("sim", component, ...)
    component = parts[1]
    is_test = path.name.endswith("_test.cc")
    found: list[str] = []
    for included in INCLUDE.findall(text):
        target = included.split("/")
        if target[1] == "tests":
            if not is_test:
                found.append(f"{path} includes {included}: only tests include sim/tests")
            continue
        if target[1] != component:
            if target[1] not in COMPONENTS[component]:
                found.append(
                    f"{path} includes {included}: sim/{component} may include "
                    f"only {sorted(COMPONENTS[component]) or 'no other component'}"
                )
            continue
        if component != "npu" or is_test:
            continue  # a unit test may drive its layer through the API above
        inner = "/".join(parts[2:])
        target_inner = "/".join(target[2:])
        here, there = npu_layer(inner), npu_layer(target_inner)
        if there > here:
            found.append(f"{path} ({NPU_LAYERS[here][0]}) includes {included} ({NPU_LAYERS[there][0]}), a higher layer")
    return found


def test_every_include_runs_downwards() -> None:
    found = [v for p in sources() for v in violations(p, p.read_text())]
    assert not found, "\n".join(found)


# Every folder of cc/ that holds C++ (sim/tests/BUILD.bazel gives each one's
# files): a folder missing from the runfiles fails, so the check cannot
# silently skip one.
CC_FOLDERS = {
    "cc/backends/ethosu",
    "cc/core",
    "cc/drivers/ethosu",
    "cc/ethosu",
    "cc/kernels",
    "cc/kernels/cortex_m",
    "cc/platform",
    "cc/platform/cortex_m",
    "cc/platform/host",
    "cc/runner",
    "cc/runtime",
    "cc/support",
    "cc/testing",
}


def cc_includes_of_sim(path: pathlib.Path, text: str) -> list[str]:
    return [f"{path} includes {included}: nothing in cc/ may include sim/" for included in INCLUDE.findall(text)]


def test_nothing_in_cc_includes_sim() -> None:
    files = sorted(p for p in pathlib.Path("cc").rglob("*") if p.suffix in (".h", ".cc"))
    missing = CC_FOLDERS - {str(p.parent) for p in files}
    assert not missing, f"no sources of {sorted(missing)} in the runfiles: add them in sim/tests/BUILD.bazel"
    found = [v for p in files for v in cc_includes_of_sim(p, p.read_text())]
    assert not found, "\n".join(found)
    # The check itself: the include cc/backends/ethosu/model_npu.h had.
    assert cc_includes_of_sim(pathlib.Path("cc/runner/x.cc"), '#include "sim/npu/model.h"\n')


def test_an_upward_include_is_caught() -> None:
    # The check itself: the include the old tree had (an operation
    # including a kernel's header) fails, its reverse passes.
    upward = violations(pathlib.Path("sim/npu/operations/x.cc"), '#include "sim/npu/kernels/convolution.h"\n')
    assert len(upward) == 1 and "higher layer" in upward[0]
    assert not violations(pathlib.Path("sim/npu/kernels/x.cc"), '#include "sim/npu/operations/operation.h"\n')
    assert violations(pathlib.Path("sim/device/x.cc"), '#include "sim/host/payload_harness.h"\n')
    assert violations(pathlib.Path("sim/npu/x.h"), '#include "sim/device/device.h"\n')


def test_a_file_outside_every_layer_is_reported() -> None:
    with pytest.raises(AssertionError, match="in no layer"):
        violations(pathlib.Path("sim/npu/new/x.cc"), '#include "sim/npu/model.h"\n')
