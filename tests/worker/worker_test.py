"""The persistent worker (python/ethosu_sdk/worker) against the one-shot CLIs.

One worker process per tool gets several requests for different models and
targets in a row, a failing one among them; each request's files must equal,
byte for byte, what the one-shot CLI writes for the same arguments, a failure
must answer with the CLI's own error line and leave the worker serving, and
the worker's stdout must carry nothing but responses.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import subprocess

import pytest
from worker_client import WorkerClient

AOT_COMPILE = "python/ethosu_sdk/cli/aot_compile"
GEN_CASE = "sim/tests/npu/gen_case"
AOT_SUFFIXES = (".pte", ".input.tensors", ".expected.tensors", ".summary.json")
# The environment ethosu_model gives its actions.
ENV = {**os.environ, "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1"}


def digests(paths: list[pathlib.Path]) -> list[str]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]


def one_shot(binary: str, arguments: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([binary, *arguments], env=ENV, capture_output=True, text=True, timeout=600)


def aot_arguments(model: str, target: str, pte: pathlib.Path) -> list[str]:
    return ["--quiet", f"--model={model}", f"--target={target}", "--quantize=int8", "--seed=0", f"--output={pte}"]


def aot_files(pte: pathlib.Path) -> list[pathlib.Path]:
    return [pte.with_name(pte.name[: -len(".pte")] + suffix) for suffix in AOT_SUFFIXES]


@pytest.fixture(scope="module")
def aot_worker():
    worker = WorkerClient(AOT_COMPILE, ENV)
    yield worker
    assert worker.close() == 0


# Different models and NPUs in one process, the first model again at the end.
AOT_REQUESTS = [
    ("mlp_softmax", "ethos-u85-256"),
    ("kws_dscnn", "ethos-u55-128"),
    ("mlp_softmax", "ethos-u85-256"),
]


def test_aot_compile_worker_equals_one_shot(aot_worker: WorkerClient, tmp_path: pathlib.Path) -> None:
    worker_outputs = []
    for index, (model, target) in enumerate(AOT_REQUESTS):
        pte = tmp_path / f"worker{index}" / "m.pte"
        pte.parent.mkdir()
        code, output = aot_worker.request(aot_arguments(model, target, pte))
        assert (code, output) == (0, ""), output  # --quiet: nothing on success
        worker_outputs.append(digests(aot_files(pte)))
    assert worker_outputs[0] == worker_outputs[2], "the same request twice gave different files"
    for index, (model, target) in enumerate(AOT_REQUESTS[:2]):
        pte = tmp_path / f"one_shot{index}" / "m.pte"
        pte.parent.mkdir()
        result = one_shot(AOT_COMPILE, aot_arguments(model, target, pte))
        assert result.returncode == 0, result.stderr
        assert digests(aot_files(pte)) == worker_outputs[index], (model, target)


def test_failing_request_answers_with_the_cli_error_and_the_worker_serves_on(
    aot_worker: WorkerClient, tmp_path: pathlib.Path
) -> None:
    arguments = aot_arguments("no_such_model", "ethos-u85-256", tmp_path / "bad.pte")
    code, output = aot_worker.request(arguments)
    result = one_shot(AOT_COMPILE, arguments)
    assert result.returncode == 2 and code == 2
    assert output == result.stdout + result.stderr
    assert output.startswith("aot_compile: error: unknown model 'no_such_model'") and output.count("\n") == 1
    # Missing flags and a stray argument: absl's messages, as the one-shot CLI prints them.
    for arguments, message in [
        (["--quiet", "--model=mlp_softmax"], "Flag --output must have a value"),
        (aot_arguments("mlp_softmax", "cpu", tmp_path / "x.pte") + ["stray"], "unexpected arguments: stray"),
    ]:
        code, output = aot_worker.request(arguments)
        result = one_shot(AOT_COMPILE, arguments)
        assert code == result.returncode == 1
        assert output == result.stdout + result.stderr and message in output, output
    # Still serving, and in a clean state: a good request succeeds.
    pte = tmp_path / "good" / "m.pte"
    pte.parent.mkdir()
    assert aot_worker.request(aot_arguments("mlp_softmax", "ethos-u85-256", pte)) == (0, "")


def case_arguments(case: str, target: str, directory: pathlib.Path) -> list[str]:
    return [
        "--quiet",
        f"--case={case}",
        f"--target={target}",
        f"--payload_out={directory}/c.payload",
        f"--tensors_out={directory}/c.tensors",
    ]


CASE_REQUESTS = [("conv3x3_s2_pad", "ethos-u85-256"), ("softmax", "ethos-u55-128"), ("conv3x3_s2_pad", "ethos-u85-256")]


def test_gen_case_worker_equals_one_shot(tmp_path: pathlib.Path) -> None:
    worker = WorkerClient(GEN_CASE, ENV)
    worker_outputs = []
    for index, (case, target) in enumerate(CASE_REQUESTS):
        directory = tmp_path / f"worker{index}"
        directory.mkdir()
        code, output = worker.request(case_arguments(case, target, directory))
        assert (code, output) == (0, ""), output
        worker_outputs.append(digests([directory / "c.payload", directory / "c.tensors"]))
    code, output = worker.request(case_arguments("no_such_case", "ethos-u85-256", tmp_path))
    assert code == 1 and "KeyError: 'no_such_case'" in output, output
    assert worker.close() == 0
    assert worker_outputs[0] == worker_outputs[2]
    for index, (case, target) in enumerate(CASE_REQUESTS[:2]):
        directory = tmp_path / f"one_shot{index}"
        directory.mkdir()
        result = one_shot(GEN_CASE, case_arguments(case, target, directory))
        assert result.returncode == 0, result.stderr
        assert digests([directory / "c.payload", directory / "c.tensors"]) == worker_outputs[index], case
