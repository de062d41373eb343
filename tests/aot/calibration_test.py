"""Calibration samples from .tensors, .npy and .npz files and, through a
user's preprocessing function, from image files: the same numbers from any
source give the same program, byte for byte, and the summary says how many
samples came from where."""

from __future__ import annotations

import json
import os
import pathlib

import numpy as np
import pytest
from absl import flags

from ethosu_sdk.cli import aot_compile
from ethosu_sdk.tensors import write_tensor_file

SAMPLES = [np.random.default_rng(i).standard_normal((1, 64)).astype(np.float32) * (i + 2) for i in range(3)]

# A user's preprocessing: decodes an 8x8 grey PGM image (the plain "P2"
# format) and scales it to the model's [1, 64] input.
PREPROCESS = """
import numpy as np

def load_pgm(path):
    words = open(path).read().split()
    assert words[0] == "P2", "not a plain PGM"
    width, height, maxval = int(words[1]), int(words[2]), int(words[3])
    pixels = np.array([int(w) for w in words[4:4 + width * height]], dtype=np.float32)
    return (pixels.reshape(1, width * height) / maxval - 0.5) * 8

def broken(path):
    raise ValueError("cannot decode " + path)
"""


def compile_with(tmp_path: pathlib.Path, name: str, *flags_: str) -> tuple[int, str, pathlib.Path]:
    out = tmp_path / ("out_" + name)
    out.mkdir()
    argv = ["aot_compile", "--model=mlp_softmax", "--target=cpu", *flags_, f"--output={out}/m.pte"]
    flags.FLAGS.unparse_flags()
    flags.FLAGS(argv)
    code = aot_compile.main(argv[:1])
    return code, "", out


def summary(out: pathlib.Path) -> dict:
    return json.loads((out / "m.summary.json").read_text())


def directory(tmp_path: pathlib.Path, name: str) -> pathlib.Path:
    d = tmp_path / name
    d.mkdir()
    return d


@pytest.fixture
def reference(tmp_path):
    """The program calibrated from .tensors files (the original reader)."""
    d = directory(tmp_path, "tensors")
    for i, sample in enumerate(SAMPLES):
        write_tensor_file(d / f"{i}.tensors", [sample])
    code, _, out = compile_with(tmp_path, "ref", f"--calibration_dir={d}")
    assert code == 0
    return out


def test_npy_files_give_the_same_program(tmp_path, reference):
    d = directory(tmp_path, "npy")
    for i, sample in enumerate(SAMPLES):
        np.save(d / f"{i}.npy", sample)
    code, _, out = compile_with(tmp_path, "npy", f"--calibration_dir={d}")
    assert code == 0
    assert (out / "m.pte").read_bytes() == (reference / "m.pte").read_bytes()
    assert summary(out)["calibration"] == {"samples": 3, "source": "directory npy"}
    assert summary(out)["inputs"] == summary(reference)["inputs"]


def test_npz_files_give_the_same_program(tmp_path, reference):
    paths = []
    for i, sample in enumerate(SAMPLES):
        np.savez(tmp_path / f"{i}.npz", sample)
        paths.append(f"--calibration_file={tmp_path / f'{i}.npz'}")
    code, _, out = compile_with(tmp_path, "npz", *paths)
    assert code == 0
    assert (out / "m.pte").read_bytes() == (reference / "m.pte").read_bytes()
    assert summary(out)["calibration"] == {"samples": 3, "source": "3 file(s)"}


def test_images_through_a_preprocessing_function(tmp_path):
    (tmp_path / "prep.py").write_text(PREPROCESS)
    images = directory(tmp_path, "images")
    arrays = directory(tmp_path, "arrays")
    rng = np.random.default_rng(7)
    for i in range(4):
        pixels = rng.integers(0, 256, 64)
        (images / f"{i}.pgm").write_text("P2\n8 8\n255\n" + " ".join(map(str, pixels)) + "\n")
        # The same numbers as the preprocessing gives, computed here independently.
        np.save(arrays / f"{i}.npy", ((pixels.astype(np.float32) / 255 - 0.5) * 8).reshape(1, 64))
    code, _, out = compile_with(
        tmp_path, "images", f"--calibration_dir={images}", f"--calibration_preprocess={tmp_path / 'prep.py'}:load_pgm"
    )
    assert code == 0
    code, _, expected = compile_with(tmp_path, "arrays", f"--calibration_dir={arrays}")
    assert code == 0
    assert summary(out)["calibration"]["samples"] == 4
    assert summary(out)["calibration"]["source"].startswith("directory images, through ")
    assert summary(out)["inputs"] == summary(expected)["inputs"]
    assert (out / "m.pte").read_bytes() == (expected / "m.pte").read_bytes()


@pytest.mark.parametrize(
    "case, message",
    [
        ("no_preprocess", "not a .tensors, .npy or .npz file; for images or other data give a preprocessing function"),
        ("raises", "calibration preprocessing of "),
        ("missing_function", "has no 'no_such'"),
        ("wrong_shape", "tensor 0 has shape [1, 32], the model takes [1, 64]"),
    ],
)
def test_bad_calibration_fails_with_one_line(tmp_path, capsys, case, message):
    (tmp_path / "prep.py").write_text(PREPROCESS)
    image = tmp_path / "0.pgm"
    image.write_text("P2\n8 8\n255\n" + " ".join(["1"] * 64) + "\n")
    extra = {
        "no_preprocess": [f"--calibration_file={image}"],
        "raises": [f"--calibration_file={image}", f"--calibration_preprocess={tmp_path / 'prep.py'}:broken"],
        "missing_function": [f"--calibration_file={image}", f"--calibration_preprocess={tmp_path / 'prep.py'}:no_such"],
        "wrong_shape": [f"--calibration_file={tmp_path / 'x.npy'}"],
    }[case]
    np.save(tmp_path / "x.npy", np.zeros((1, 32), np.float32))
    code, _, out = compile_with(tmp_path, "out", *extra)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert [line for line in err.splitlines() if line.startswith("aot_compile: error:")] == [
        err.strip().splitlines()[-1]
    ]
    assert os.listdir(out) == []
