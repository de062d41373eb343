"""Two compilations give byte-identical outputs, and match the build's."""

import hashlib

from ethosu_sdk.aot import CompileOptions, compile_model


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def test_two_runs_and_the_build_produce_identical_files(tmp_path):
    options = CompileOptions(model="mlp_softmax", target="ethos-u85-256")
    first = compile_model(options, str(tmp_path / "a.pte"), progress=lambda _: None)
    second = compile_model(options, str(tmp_path / "b.pte"), progress=lambda _: None)
    for suffix in (".pte", ".input.tensors", ".expected.tensors"):
        a, b = first.paths[suffix], second.paths[suffix]
        built = "tests/aot/mlp_softmax_u85_256" + suffix  # built by Bazel in another process
        assert digest(a) == digest(b) == digest(built), suffix
