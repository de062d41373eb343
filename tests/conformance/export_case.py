"""Exports one collected ExecuTorch Ethos-U test case (collect.py) as a float
torch.export program (.pt2) with its example inputs, non-tensor values
included (the SDK's intake bakes them in), as a user would hand it over.

    export_case --case='test_add::test_add_tensor_u85_INT[4d_randn]' --npu=u85 --out=case.pt2
"""

from __future__ import annotations

import sys

import collect
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_string("case", None, "file::function[id], as collect.Case.name.", required=True)
flags.DEFINE_enum("npu", None, ["u55", "u65", "u85"], "The NPU of the case's pipeline.", required=True)
flags.DEFINE_string(
    "quantize",
    None,
    "Fail unless the case's quantization is this SDK mode (int8, a16w8): the "
    "BUILD file's quantize attribute must match the case's own settings.",
)
flags.DEFINE_string("out", None, "Where to write the .pt2.", required=True)


def main(argv: list[str]) -> int:
    del argv
    file, _, rest = FLAGS.case.partition("::")
    function = rest.split("[", 1)[0]  # only that test function's cases: faster
    errors: list[str] = []
    matches = [c for c in collect.collect_file(file, errors, function) if c.name == FLAGS.case and c.npu == FLAGS.npu]
    if not matches:
        print(
            f"export_case: error: no {FLAGS.npu} case {FLAGS.case} in the installed ExecuTorch's Arm tests"
            + (f" ({errors[0]})" if errors else "")
            + "; list them with collect.collect()",
            file=sys.stderr,
        )
        return 2
    case = matches[0]
    if FLAGS.quantize and FLAGS.quantize != case.quantize:
        print(
            f"export_case: error: {case.name} is a {case.quantize} case, the target says {FLAGS.quantize}",
            file=sys.stderr,
        )
        return 2
    collect.export(case, FLAGS.out)
    return 0


if __name__ == "__main__":
    app.run(main)
