"""Writes the C++ operator registration for the operators a .pte uses.

Selective registration: the generated file holds the unboxing wrappers and
registry entries of only the operators the programs name (operators.yaml
lists every operator there is a kernel for), so the linker keeps only their
kernels. Fails when a program needs an operator that has no kernel, in one
line naming the operator, the .pte and what to do.

    gen_registration --pte=a.pte --pte=b.pte --out=registration.cc
    gen_registration --all --out=registration.cc
"""

from __future__ import annotations

import sys
from typing import Dict, List, Set

import kernel_codegen
import operator_table
import refused_table
from absl import app, flags
from executorch_program import program_generated as pte_schema

FLAGS = flags.FLAGS
flags.DEFINE_multi_string("pte", [], ".pte files whose operators to register.")
flags.DEFINE_bool("all", False, "Register every kernel.")
flags.DEFINE_string("out", None, "Output .cc path.")


class RegistrationError(Exception):
    """A .pte that cannot be read, or an operator without a kernel."""


def operator_names(pte: bytes) -> Set[str]:
    """Every operator of every method of a .pte, as "name.overload"."""
    if len(pte) < 8 or not pte[4:6] == b"ET":  # file identifier "ET12"
        raise RegistrationError("not an ExecuTorch program (no ET file identifier)")
    try:
        program = pte_schema.Program.GetRootAs(pte, 0)
        names: Set[str] = set()
        for p in range(program.ExecutionPlanLength()):
            plan = program.ExecutionPlan(p)
            for o in range(plan.OperatorsLength()):
                op = plan.Operators(o)
                name = op.Name().decode()
                overload = (op.Overload() or b"").decode()
                names.add(f"{name}.{overload}" if overload else name)
    except Exception as e:  # flatbuffers reads out of range on a damaged file
        raise RegistrationError(f"damaged program ({type(e).__name__}: {e})") from e
    return names


def selected_operators(pte_paths: List[str], kernels: Set[str]) -> List[str]:
    """The operators the programs use, sorted; raises RegistrationError naming
    the first operator without a kernel and the .pte that uses it."""
    wanted: Set[str] = set()
    for path in pte_paths:
        try:
            with open(path, "rb") as f:
                names = operator_names(f.read())
        except OSError as e:
            raise RegistrationError(f"cannot read {path}: {e.strerror}") from e
        except RegistrationError as e:
            raise RegistrationError(f"{path}: {e}") from e
        missing = sorted(names - kernels)
        refused = refused_table.load()
        for name in missing:
            if refused.get(name, {}).get("status") == "refused":
                raise RegistrationError(f"{name} (used by {path}) is not supported: {refused[name]['reason']}")
        if missing:
            raise RegistrationError(
                f"no CPU kernel for {', '.join(missing)} (used by {path}): make the model avoid it or let the "
                "NPU run it (its .summary.json lists what stays on the CPU), or add a kernel to cc/kernels/ and "
                "list it in cc/kernels/operators.yaml"
            )
        wanted |= names
    return sorted(wanted)


def main(argv: List[str]) -> int:
    del argv
    try:
        table: Dict[str, operator_table.Operator] = {op.name: op for op in operator_table.load()}
        names = sorted(table) if FLAGS.all else selected_operators(FLAGS.pte, set(table))
    except (RegistrationError, operator_table.TableError) as e:
        # One line, not app.UsageError's flag help: the flags were right.
        print(f"gen_registration: error: {e}", file=sys.stderr)
        return 1
    with open(FLAGS.out, "w") as f:
        f.write(kernel_codegen.registration_source([table[n] for n in names]))
    return 0


if __name__ == "__main__":
    flags.mark_flag_as_required("out")
    app.run(main)
