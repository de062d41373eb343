"""aot_compile on bad input: clear message, non-zero exit, no output files."""

import os

import numpy as np
import pytest
from absl import flags

from ethosu_sdk.cli import aot_compile
from ethosu_sdk.tensors import write_tensor_file


def run_cli(args, capsys):
    argv = ["aot_compile", *args]
    flags.FLAGS.unparse_flags()
    flags.FLAGS(argv)
    code = aot_compile.main(argv[:1])
    return code, capsys.readouterr().err


def outputs_in(directory):
    return sorted(os.listdir(directory))


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--model=no_such_model", "--target=ethos-u85-256"], "unknown model 'no_such_model'"),
        (["--model=mlp_softmax", "--target=ethos-u99-1"], "unknown target 'ethos-u99-1'"),
        (
            ["--model=mlp_softmax", "--target=ethos-u85-256", "--calibration_dir=/no/such/dir"],
            "cannot read calibration directory",
        ),
        (["--model=aot_test_models:not_exportable", "--target=ethos-u85-256"], "torch.export failed"),
        (["--model=no_such_module:build", "--target=cpu"], "cannot import model module"),
        (["--model=mlp_softmax", "--target=TOSA-1.0+FP"], "use --quantize=none"),
        (
            ["--model=mlp_softmax", "--target=cpu", "--quantize=none", "--calibration_dir=/tmp"],
            "calibration data needs a quantized compilation",
        ),
        (
            ["--model=mlp_softmax", "--target=cpu", "--quantize=none", "--io=int8"],
            "--io=int8 needs --quantize=int8 (got --quantize=none): use --io=float",
        ),
        # ExecuTorch's A8W4 config has int8 activations: there is no A16W4.
        (
            ["--model=mlp_softmax", "--target=ethos-u85-256", "--quantize=a16w8", "--weights=int4"],
            "--weights=int4 needs --quantize=int8 (A8W4), got --quantize=a16w8",
        ),
        (
            ["--model=mlp_softmax", "--target=TOSA-1.0+FP", "--quantize=none", "--noper_channel"],
            "--noper_channel needs a quantized compilation",
        ),
        # The cortex_m backend quantizes with its own quantizer, not the Arm one.
        (
            ["--model=mlp_softmax", "--target=cortex-m55", "--io_quantization=set_io"],
            "--io_quantization=set_io sets the Arm quantizer of the Ethos-U and TOSA targets, not cortex-m55",
        ),
    ],
)
def test_bad_input_fails_cleanly(extra, message, tmp_path, capsys):
    code, err = run_cli([*extra, f"--output={tmp_path}/m.pte"], capsys)
    assert code != 0
    assert message in err
    assert outputs_in(tmp_path) == []


def test_calibration_dir_that_is_a_file(tmp_path, capsys):
    not_a_dir = tmp_path / "samples.tensors"
    write_tensor_file(not_a_dir, [np.zeros((1, 64), np.float32)])
    out = tmp_path / "out"
    out.mkdir()
    code, err = run_cli(
        ["--model=mlp_softmax", "--target=cpu", f"--calibration_dir={not_a_dir}", f"--output={out}/m.pte"], capsys
    )
    assert code != 0 and "cannot read calibration directory" in err
    assert outputs_in(out) == []


def test_calibration_of_the_wrong_shape(tmp_path, capsys):
    calibration = tmp_path / "calibration"
    calibration.mkdir()
    write_tensor_file(calibration / "0.tensors", [np.zeros((1, 32), np.float32)])
    out = tmp_path / "out"
    out.mkdir()
    code, err = run_cli(
        ["--model=mlp_softmax", "--target=cpu", f"--calibration_dir={calibration}", f"--output={out}/m.pte"], capsys
    )
    assert code != 0 and "has shape [1, 32], the model takes [1, 64]" in err
    assert outputs_in(out) == []


def test_failure_after_lowering_leaves_no_partial_files(tmp_path, capsys, monkeypatch):
    # Make the summary step fail once the .pte exists in memory.
    from ethosu_sdk.aot import lowering

    def broken(_edge):
        raise RuntimeError("injected failure")

    monkeypatch.setattr(lowering, "delegation_counts", broken)
    code, err = run_cli(
        ["--model=mlp_softmax", "--target=cpu", "--quantize=none", f"--output={tmp_path}/m.pte"], capsys
    )
    assert code == 1
    assert "aot_compile: error: internal error: RuntimeError: injected failure" in err
    assert "Traceback" not in err
    assert outputs_in(tmp_path) == []


def test_calibration_dir_is_used(tmp_path, capsys):
    calibration = tmp_path / "calibration"
    calibration.mkdir()
    rng = np.random.default_rng(0)
    for i in range(3):
        write_tensor_file(calibration / f"{i}.tensors", [rng.standard_normal((1, 64)).astype(np.float32) * 3])
    out = tmp_path / "out"
    out.mkdir()
    code, err = run_cli(
        ["--model=mlp_softmax", "--target=cpu", f"--calibration_dir={calibration}", f"--output={out}/m.pte"], capsys
    )
    assert code == 0, err
    assert "3 calibration sample(s)" in err
    assert outputs_in(out) == ["m.expected.tensors", "m.input.tensors", "m.pte", "m.summary.json"]
