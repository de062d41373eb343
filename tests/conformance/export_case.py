"""Exports collected ExecuTorch Ethos-U test cases (collect.py) as float
torch.export programs (.pt2) with their example inputs, non-tensor values
included (the SDK's intake bakes them in), as a user would hand them over.

    export_case --case='test_add::test_add_tensor_u85_INT[4d_randn]' --npu=u85 --out=case.pt2

Repeat the four flags (in the same order) to export several cases in one
process: torch and ExecuTorch's test files are imported once, not once per
case (the conformance sample's exports, tests/conformance/cases.bzl).
"""

from __future__ import annotations

import sys

import collect
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_multi_string("case", None, "file::function[id], as collect.Case.name.", required=True)
flags.DEFINE_multi_enum("npu", None, ["u55", "u65", "u85"], "The NPU of the case's pipeline.", required=True)
flags.DEFINE_multi_string(
    "quantization",
    [],
    "Fail unless the case's quantization is this label of the SDK's options "
    "(collect.Case.quantization: `int8`, `a16w8 per_channel=False`, ...): the "
    "BUILD file's options must match the case's own settings. Given once per "
    "--case, or not at all.",
)
flags.DEFINE_multi_string("out", None, "Where to write the .pt2, once per --case.", required=True)


def export(name: str, npu: str, quantization: str | None, out: str) -> str | None:
    """Writes one case; returns the error line when it cannot."""
    file, _, rest = name.partition("::")
    function = rest.split("[", 1)[0]  # only that test function's cases: faster
    errors: list[str] = []
    matches = [c for c in collect.collect_file(file, errors, function) if c.name == name and c.npu == npu]
    if not matches:
        return (
            f"no {npu} case {name} in the installed ExecuTorch's Arm tests"
            + (f" ({errors[0]})" if errors else "")
            + "; list them with collect.collect()"
        )
    case = matches[0]
    if case.unexpressible:
        return f"{case.name}: {case.unexpressible}"
    if quantization and quantization != case.quantization:
        return f"{case.name} is a '{case.quantization}' case, the target says '{quantization}'"
    collect.export(case, out)
    return None


def main(argv: list[str]) -> int:
    del argv
    count = len(FLAGS.case)
    if len(FLAGS.npu) != count or len(FLAGS.out) != count or len(FLAGS.quantization) not in (0, count):
        print("export_case: error: give --npu, --out (and --quantization, if any) once per --case", file=sys.stderr)
        return 2
    quantization = FLAGS.quantization or [None] * count
    for name, npu, label, out in zip(FLAGS.case, FLAGS.npu, quantization, FLAGS.out):
        error = export(name, npu, label, out)
        if error:
            print(f"export_case: error: {error}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    app.run(main)
