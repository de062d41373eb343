"""aot_compile --eval_data: top-1 per stage against labels the test derives
from PyTorch itself, and one clear error line for each kind of bad directory."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import torch
from absl import flags

from ethosu_sdk.cli import aot_compile
from ethosu_sdk.models import load_model

MODEL = "mlp_softmax"  # input [1, 64], 10 classes
HOST_RUNNER = os.path.join("sim", "host", "host_runner")  # runfiles (data)


def run_cli(args: list[str], capsys) -> tuple[int, str]:
    argv = ["aot_compile", *args]
    flags.FLAGS.unparse_flags()
    flags.FLAGS(argv)
    code = aot_compile.main(argv[:1])
    return code, capsys.readouterr().err


def compile_cpu(eval_dir, out_dir, capsys) -> tuple[int, str]:
    return run_cli(
        [
            f"--model={MODEL}",
            "--target=cpu",
            "--quantize=none",
            f"--eval_data={eval_dir}",
            f"--host_runner={HOST_RUNNER}",
            f"--output={out_dir}/m.pte",
        ],
        capsys,
    )


def write_sample(directory, name: str, **arrays) -> None:
    directory.mkdir(exist_ok=True)
    np.savez(directory / name, **arrays)


def test_top1_of_every_stage_against_pytorch_labels(tmp_path, capsys):
    model = load_model(MODEL).module
    generator = np.random.default_rng(7)
    eval_dir = tmp_path / "eval"
    top5 = 0  # labels among PyTorch's five best classes (torch.topk)
    for index in range(8):
        x = generator.standard_normal((1, 64)).astype(np.float32)
        with torch.no_grad():
            scores = model(torch.from_numpy(x)).reshape(-1)
        predicted = int(scores.argmax())
        # Half of the labels are PyTorch's answer, half its fourth or eighth
        # best class: 50% top-1, 75% top-5.
        ranked = torch.topk(scores, 10).indices.tolist()
        label = predicted if index % 2 == 0 else ranked[3 if index % 4 == 1 else 7]
        top5 += int(label in torch.topk(scores, 5).indices.tolist())
        write_sample(eval_dir, f"{index}.npz", input=x, label=np.int64(label))
    assert top5 == 6
    out = tmp_path / "out"
    out.mkdir()
    code, err = compile_cpu(eval_dir, out, capsys)
    assert code == 0, err
    with open(out / "m.summary.json") as f:
        accuracy = json.load(f)["accuracy"]
    assert accuracy["samples"] == 8 and accuracy["classes"] == 10
    figures = {"correct": 4, "samples": 8, "top1": 0.5, "top5_correct": top5, "top5": top5 / 8}
    assert accuracy["stages"]["float"] == figures
    assert accuracy["stages"]["program"] == figures
    assert "top-1 50.00% (4/8), top-5 75.00%: float model" in err
    assert "top-1 50.00% (4/8), top-5 75.00%: compiled program" in err


GOOD_INPUT = np.zeros((1, 64), np.float32)


@pytest.mark.parametrize(
    "arrays, message",
    [
        (
            {"input": np.zeros((1, 32), np.float32), "label": np.int64(1)},
            "input 0 has shape [1, 32], the model takes [1, 64]",
        ),
        ({"input": GOOD_INPUT}, "no 'label' array"),
        ({"input": GOOD_INPUT, "label": np.int64(10)}, "label 10 is out of range; the model has 10 classes"),
        ({"input": GOOD_INPUT, "label": np.int64(-1)}, "label -1 is out of range"),
        ({"input": GOOD_INPUT, "label": np.float32(1.5)}, "'label' must be one integer class index"),
        (
            {"input": GOOD_INPUT, "other": GOOD_INPUT, "label": np.int64(1)},
            "2 input array(s) besides 'label', the model takes 1",
        ),
    ],
)
def test_bad_sample_is_one_clear_line(arrays, message, tmp_path, capsys):
    eval_dir = tmp_path / "eval"
    write_sample(eval_dir, "0000.npz", input=GOOD_INPUT, label=np.int64(3))
    write_sample(eval_dir, "0001.npz", **arrays)
    out = tmp_path / "out"
    out.mkdir()
    code, err = compile_cpu(eval_dir, out, capsys)
    assert code == 2
    lines = [line for line in err.splitlines() if message in line]
    assert len(lines) == 1, err
    assert "0001.npz" in lines[0]
    assert os.listdir(out) == []  # nothing half-written


def test_empty_directory_is_one_clear_line(tmp_path, capsys):
    eval_dir = tmp_path / "eval"
    eval_dir.mkdir()
    (eval_dir / "notes.txt").write_text("not a sample")
    out = tmp_path / "out"
    out.mkdir()
    code, err = compile_cpu(eval_dir, out, capsys)
    assert code == 2
    assert len([line for line in err.splitlines() if "holds no .npz files" in line]) == 1, err
    assert os.listdir(out) == []


def test_missing_directory_is_one_clear_line(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    code, err = compile_cpu(tmp_path / "nowhere", out, capsys)
    assert code == 2
    assert len([line for line in err.splitlines() if "cannot read evaluation directory" in line]) == 1, err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--target=ethos-u55-128", "--accuracy_tolerance=2"], "--accuracy_tolerance measures top-1 against"),
        (["--target=ethos-u55-128", "--accuracy_tolerance=-1", "--eval_data=."], "must be >= 0 points"),
        (
            ["--target=ethos-u55-128", "--accuracy_tolerance=2", "--eval_data=.", "--quantize=a16w8"],
            "leave --quantize at int8",
        ),
        (["--target=cortex-m55", "--accuracy_tolerance=2", "--eval_data=."], "it needs an Ethos-U target"),
    ],
)
def test_bad_precision_request_is_one_clear_line(args, message, tmp_path, capsys):
    code, err = run_cli(
        [f"--model={MODEL}", f"--host_runner={HOST_RUNNER}", f"--output={tmp_path}/m.pte", *args], capsys
    )
    assert code == 2
    assert len([line for line in err.splitlines() if message in line]) == 1, err
    assert os.listdir(tmp_path) == []
