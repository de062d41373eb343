"""A few held-out digits through the firmware on QEMU (the mps3-an547 with the
SDK's Ethos-U55-128 device, driven through its registers): each output is
bit for bit the host runner's for the same sample (the evaluation's compiled-
program stage), and the predicted digit is the float PyTorch model's and is
compared with the sample's label."""

from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest
from digits_split import float_scores

from ethosu_sdk.runner import protocol

RUNNER = os.path.join("python", "ethosu_sdk", "runner", "run_firmware")
HOST_RUNNER = os.path.join("sim", "host", "host_runner")
PTE = os.path.join("examples", "digits_u55_model.pte")
EVAL_DIR = os.path.join("examples", "digits", "eval")
SAMPLES = os.environ["QEMU_SAMPLES"].split()
TIMEOUT_S = 600


def _parsed(command: list[str]) -> protocol.Run:
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
    run = protocol.parse(result.stdout)
    assert run.ended and not run.errors, result.stdout[-3000:] + result.stderr[-3000:]
    return run


def _sample(name: str) -> tuple[np.ndarray, int]:
    with np.load(os.path.join(EVAL_DIR, f"{name}.npz")) as archive:
        label = int(archive["label"])
        (image,) = [archive[k] for k in archive.files if k != "label"]
    return image.reshape(8, 8), label


@pytest.fixture(scope="module")
def runs() -> dict[str, tuple[protocol.Run, protocol.Run]]:
    """Sample -> (QEMU firmware run, host runner run)."""
    out = {}
    for name in SAMPLES:
        board = _parsed(
            [RUNNER, "--board=qemu_an547", f"--elf=tests/accuracy/digits_sample_{name}_firmware.elf"]
            + ["--npu=ethos-u55-128"]
        )
        host = _parsed([HOST_RUNNER, f"--pte={PTE}", f"--input=tests/accuracy/digits_sample_{name}.input.tensors"])
        out[name] = (board, host)
    return out


@pytest.mark.parametrize("name", SAMPLES)
def test_qemu_gives_the_host_runners_bytes(runs, name: str) -> None:
    board, host = runs[name]
    assert board.records["NPU"]["npu"] == "ethos-u55-128"
    assert int(board.records["NPU"]["jobs"]) == 1
    assert board.outputs.keys() == host.outputs.keys() == {0}
    assert board.outputs[0].shape == (1, 10)
    assert board.outputs[0].tobytes() == host.outputs[0].tobytes()
    # The firmware's own verdict against the host output embedded with it.
    assert board.result == "PASS" and all(c.exact == 10 for c in board.comparisons), board.comparisons


def test_predictions_are_the_float_models_and_compared_with_the_labels(runs) -> None:
    images, labels = zip(*(_sample(name) for name in SAMPLES))
    reference = float_scores(np.stack(images)).argmax(1)
    predicted = [int(np.argmax(runs[name][0].outputs[0])) for name in SAMPLES]
    table = list(zip(SAMPLES, labels, predicted, reference.tolist()))
    # On these samples int8 on the NPU changes no decision of the float model.
    assert predicted == reference.tolist(), table
    # Against the labels: right where the float model is right (0015, an 8,
    # is chosen as one both take for another digit).
    right = [p == label for p, label in zip(predicted, labels)]
    assert right == [r == label for r, label in zip(reference.tolist(), labels)], table
    assert 0 < sum(right) < len(SAMPLES), table  # the set holds hits and a miss, as chosen
