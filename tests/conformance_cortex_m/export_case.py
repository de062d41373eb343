"""Exports collected ExecuTorch cortex_m test cases (collect.py) as float
torch.export programs (.pt2) with their example inputs, as a user would
hand them over.

    export_case --case='ops/test_add::test_implementation_add[tensor_scalar]' --out=case.pt2

Repeat both flags (in the same order) to export several cases in one
process: torch and ExecuTorch's test files are imported once.
"""

from __future__ import annotations

import sys

import collect
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_multi_string("case", None, "package/file::function[id], as collect.Case.name.", required=True)
flags.DEFINE_multi_string("out", None, "Where to write the .pt2, once per --case.", required=True)


def export(name: str, out: str) -> str | None:
    """Writes one case; returns the error line when it cannot."""
    path, _, rest = name.partition("::")
    short, _, file = path.partition("/")
    package = next((p for p in collect.PACKAGES if p.endswith("." + short)), None)
    if package is None:
        return f"no package {short!r} in the wheel's cortex_m tests: one of {', '.join(collect.PACKAGES)}"
    errors: list[str] = []
    matches = [c for c in collect.collect_file(package, file, errors, rest.split("[", 1)[0]) if c.name == name]
    if not matches:
        return (
            f"no case {name} in the installed ExecuTorch's cortex_m tests"
            + (f" ({errors[0]})" if errors else "")
            + "; list them with collect.collect()"
        )
    collect.export(matches[0], out)
    return None


def main(argv: list[str]) -> int:
    del argv
    if len(FLAGS.out) != len(FLAGS.case):
        print("export_case: error: give --out once per --case", file=sys.stderr)
        return 2
    for name, out in zip(FLAGS.case, FLAGS.out):
        error = export(name, out)
        if error:
            print(f"export_case: error: {error}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    app.run(main)
