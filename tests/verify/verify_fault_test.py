"""A planted one-step fault makes ethosu_model's verification fail and name
the PyTorch module of the faulty layer.

The verification (verify_model, the binary the EthosuVerify action runs) is
run on a zoo model's .pte and verification inputs, once clean and once with
npu_run's --inject=N (one element of NPU operation N's output off by one).
The module the message must name is derived independently of the
verification's origin map: the faulty layer is the k-th convolution or
fully connected layer in Vela's debug database (command stream order), so it
is the k-th nn.Conv2d / nn.Linear of the model in definition order (the zoo
models run their layers in that order); its source line is the line of the
model's file that calls it.
"""

import inspect
import json
import os
import re
import subprocess
from typing import List, Tuple

from torch import nn

from ethosu_sdk.models import load_model
from ethosu_sdk.verify.vela_debug_db import read_layers

MODEL = os.environ["MODEL"]
STEM = os.environ["STEM"]
VERIFY = "python/ethosu_sdk/cli/verify_model"
NPU_RUN = "sim/host/npu_run"
MAC_OPERATORS = ("Conv2D", "DepthwiseConv2D", "FullyConnected")


def verify(tmp_path, inject=None) -> Tuple[int, str, dict]:
    report = str(tmp_path / ("fault.json" if inject is not None else "clean.json"))
    argv = [
        VERIFY,
        f"--pte={STEM}.pte",
        f"--verify_dir={STEM}.verify",
        f"--npu_run={NPU_RUN}",
        "--mode=fail",
        f"--report_json={report}",
    ]
    if inject is not None:
        argv.append(f"--inject={inject}")
    proc = subprocess.run(argv, capture_output=True, text=True)
    print(proc.stdout + proc.stderr)
    with open(report) as f:
        return proc.returncode, proc.stdout, json.load(f)


def mac_modules() -> List[Tuple[str, nn.Module]]:
    module = load_model(MODEL).module
    return [(name, m) for name, m in module.named_modules() if isinstance(m, (nn.Conv2d, nn.Linear))]


def expected_line(path: str) -> int:
    """The line of the model's source that calls the module (innermost)."""
    source_file = inspect.getsourcefile(type(load_model(MODEL).module))
    with open(source_file) as f:
        lines = f.read().splitlines()
    for component in reversed(path.split(".")):
        hits = [i + 1 for i, line in enumerate(lines) if f"self.{component}(" in line]
        if hits:
            assert len(hits) == 1, f"self.{component}( on lines {hits}"
            return hits[0]
    raise AssertionError(f"no line of {source_file} calls {path}")


def test_clean_model_verifies(tmp_path):
    code, _, report = verify(tmp_path)
    assert code == 0
    assert report["status"] == "pass"
    layers = report["partitions"][0]["layers"]
    assert sum(1 for layer in layers if layer["compared"]) >= 3
    assert all(layer["differing"] == 0 for layer in layers)


def test_planted_fault_fails_and_names_the_module(tmp_path):
    _, _, clean = verify(tmp_path)
    layers = clean["partitions"][0]["layers"]
    # The middle one-operation MAC layer (not the last: the fault should
    # travel on through later layers).
    candidates = [
        i
        for i, layer in enumerate(layers)
        if layer["compared"] and layer["operations"] == 1 and layer["operator"] in MAC_OPERATORS
    ]
    target = candidates[(len(candidates) - 1) // 2]
    operation = sum(layer["operations"] for layer in layers[:target])

    # Independently: which MAC layer of the command stream is it (Vela's
    # debug database), hence which nn.Conv2d / nn.Linear of the model.
    db_layers = read_layers(f"{STEM}.verify/partition0.debug.xml")
    tensor = layers[target]["tensor"]
    macs = []
    for layer in db_layers:
        if layer.operator in MAC_OPERATORS and (not macs or macs[-1] != layer.tensor):
            macs.append(layer.tensor)
    module_path, _ = mac_modules()[macs.index(tensor)]
    line = expected_line(module_path)

    code, out, report = verify(tmp_path, inject=operation)
    first_line = out.splitlines()[0]
    assert code == 1, out
    assert report["status"] == "fail"
    assert first_line.startswith(
        f"verification FAILED: NPU program (NPU vs TOSA): first differing layer `{module_path}` "
    ), first_line
    assert re.search(
        rf"at [^ ]*{os.path.basename(inspect.getsourcefile(type(load_model(MODEL).module)))}:{line}\b", first_line
    ), first_line
    assert f"TOSA tensor {tensor} " in first_line, first_line
    first = report["first_difference"]["layer"]
    assert first["module"] == module_path
    assert first["differing"] == 1 and set(first["histogram"]) <= {"1", "-1"}
