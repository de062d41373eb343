"""Prints what a .pte holds: plans, operators, delegates, segments (JSON)."""

from __future__ import annotations

import dataclasses
import json
import sys

from absl import app

from ethosu_sdk.pte.reader import PteError, read_pte


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        raise app.UsageError("usage: pte_info FILE.pte")
    path = argv[1]
    try:
        program = read_pte(path)
    except OSError as e:
        print(f"pte_info: error: cannot read {path}: {e.strerror or e}", file=sys.stderr)
        return 1
    except PteError as e:
        print(
            f"pte_info: error: {path} is not a valid ExecuTorch program ({e}): give a .pte that "
            "aot_compile or ExecuTorch wrote",
            file=sys.stderr,
        )
        return 1
    info = dataclasses.asdict(program)
    for plan in info["plans"]:
        for d in plan["delegates"]:
            d["compile_specs"] = {k: v.decode("utf-8", "replace") for k, v in d["compile_specs"].items()}
    print(json.dumps(info, indent=2))
    return 0


if __name__ == "__main__":
    app.run(main)
