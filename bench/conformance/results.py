"""The conformance bench's results, accumulated across runs and sessions.

Each run appends one JSON line per case to a file of
bench/conformance/results/ (one file per shard spec, so sessions that run
different shards do not edit the same file); summary.py reads all of them.
A case run again (a later commit, a fix) counts once: its latest record.
"""

from __future__ import annotations

import collections
import dataclasses
import glob
import json
import os
import re
import sys
from typing import Iterable, Optional

# The SDK target of each NPU (as tests/conformance/cases.bzl's TARGETS).
TARGETS = {"u55": "ethos-u55-128", "u65": "ethos-u65-256", "u85": "ethos-u85-256"}
DIRECTORY = "bench/conformance/results"

# Failure classes from a failure's first line saying why, in order of
# precedence: (class, pattern). The verification's lines say which half
# differs (python/ethosu_sdk/verify): "lowering (TOSA vs PyTorch)" or
# "NPU program (NPU vs TOSA)"; "verification error" is the verifier
# unable to compare at all.
CLASSES = [
    # A case whose quantization the SDK cannot express (collect.Case.unexpressible): not run.
    ("unexpressible quantization", re.compile(r"^unexpressible quantization")),
    # Not a verification's line: it may name an "unsupported" NPU feature.
    ("export failed", re.compile(r"^(?!verification).*(export_case|torch\.export|UserError|Unsupported)", re.I)),
    ("console/protocol", re.compile(r"ProtocolError|well-formed run|out of order")),
    (
        "verification: not modelled",
        re.compile(r"skipped|not supported|not modelled|outside region|lacks an NPU|does not run NPU_OP"),
    ),
    # The lowering check names an ExecuTorch lowering it knows to be off
    # (python/ethosu_sdk/verify/executorch_faults.py): not the SDK's fault.
    ("verification: ExecuTorch fault", re.compile(r"known ExecuTorch fault")),
    ("verification: lowering differs from PyTorch", re.compile(r"lowering \(TOSA vs PyTorch\)")),
    ("verification: NPU model differs from TOSA", re.compile(r"NPU vs TOSA")),
    # TOSA leaves the result undefined (a SCATTER writing one position
    # twice): the build refuses to ship it unverified (tests/conformance/known.py).
    ("verification: undefined by TOSA", re.compile(r"UNPREDICTABLE")),
    ("verification error", re.compile(r"verification error")),
    ("verification: other", re.compile(r"verification", re.I)),
    ("missing CPU kernel", re.compile(r"[Mm]issing operator|kernel .*not found|Tensor_out|_out`")),
    ("CPU kernel refused", re.compile(r"firmware reported: InvalidArgument")),
    ("NPU fault", re.compile(r"NPU fault")),
    ("wrong output", re.compile(r"FAIL:")),
    ("timeout", re.compile(r"TIMEOUT|timed out", re.I)),
]


def classify(reason: str) -> str:
    return next((cls for cls, pattern in CLASSES if pattern.search(reason)), "other")


@dataclasses.dataclass
class Record:
    """One case's result: what the summary needs, and enough to rerun it."""

    case: str  # collect.Case.name: file::function[id]
    npu: str  # u55, u65, u85
    quantize: str  # the SDK's quantization (collect.Case.quantization): int8, a16w8 per_channel=False, ...
    outcome: str  # PASS, FAIL (on QEMU), BUILD FAIL, EXPORT FAIL, NOT RUN (unexpressible quantization)
    cls: Optional[str]  # the failure class (conformance.classify), None on PASS
    reason: str  # the first line saying why ("" on PASS)
    xfail: Optional[str]  # ExecuTorch's own xfail reason, if any
    known: Optional[str]  # the SDK's known class (tests/conformance/known.py)
    commit: str  # the tree's commit the run built
    date: str  # UTC, ISO 8601
    shard: str  # the selection's flags, e.g. "--shard=3/20"

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.case, self.npu, self.quantize)


def workspace(tool: str, command: str) -> Optional[str]:
    """The workspace `bazel run` started `tool` from (where the results
    live), or None after saying how to run it."""
    directory = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    if not directory:
        print(f"{tool}: error: run it with `{command}`", file=sys.stderr)
    return directory


def file_for(selection: str, directory: str = DIRECTORY) -> str:
    """The results file of a selection: one per shard spec ("--shard=3/20"
    -> shard-3-of-20.jsonl), any other slice in slices.jsonl."""
    match = re.fullmatch(r"--shard=(\d+)/(\d+)", selection)
    name = f"shard-{match.group(1)}-of-{match.group(2)}" if match else "slices"
    return os.path.join(directory, name + ".jsonl")


def append(path: str, records: Iterable[Record]) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a") as f:
        for record in records:
            f.write(json.dumps(dataclasses.asdict(record), sort_keys=True) + "\n")


def load(directory: str, commit: Optional[str] = None) -> list[Record]:
    """Every case's latest record in `directory`'s .jsonl files (by date,
    then file order); with `commit`, only the records of runs on that tree
    (a figure from one commit)."""
    latest: dict[tuple[str, str, str], Record] = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.jsonl"))):
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    record = Record(**json.loads(line))
                except (json.JSONDecodeError, TypeError) as e:
                    raise ValueError(f"{path}:{number}: not a result record ({e}); fix or delete the line") from e
                # Classified again: records written before a class was
                # refined join it.
                record.cls = None if record.outcome == "PASS" else classify(record.reason)
                if commit is not None and record.commit != commit:
                    continue
                old = latest.get(record.key)
                if old is None or record.date >= old.date:
                    latest[record.key] = record
    return sorted(latest.values(), key=lambda r: r.key)


def failing(directory: str) -> set[tuple[str, str, str]]:
    """The cases whose latest record is not a PASS (`--failed`)."""
    return {r.key for r in load(directory) if r.outcome != "PASS"}


def tables(records: list[Record]) -> str:
    """Pass rate per target (among all cases and among those ExecuTorch
    expects to pass), then the failures by class with ExecuTorch's xfail
    and ours (known.py) side by side, one example each."""
    lines = [
        "| target | cases | pass | pass rate | ExecuTorch expects to pass | of those pass |",
        "|---|---|---|---|---|---|",
    ]
    per_npu: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    for record in records:
        row = per_npu[record.npu]
        passed = record.outcome == "PASS"
        row[0] += 1
        row[1] += passed
        if record.xfail is None:
            row[2] += 1
            row[3] += passed
    for npu, (n, p, e, ep) in sorted(per_npu.items()):
        lines.append(
            f"| {TARGETS.get(npu, npu)} | {n} | {p} | {100 * p / n:.1f}% | {e} | "
            f"{ep} ({100 * ep / e if e else 0:.1f}%) |"
        )
    failures: collections.Counter[tuple[str, str, str]] = collections.Counter()
    examples: dict[tuple[str, str, str], str] = {}
    for record in records:
        if record.outcome == "PASS":
            continue
        key = (record.cls or "other", "xfail" if record.xfail else "-", record.known or "-")
        failures[key] += 1
        examples.setdefault(key, f"{record.case} ({record.npu}, {record.quantize}): {record.reason}")
    lines += [
        "",
        "| failure class | ExecuTorch xfail | SDK known (known.py) | cases | example |",
        "|---|---|---|---|---|",
    ]
    for key, count in sorted(failures.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {count} | {examples[key].replace('|', '/')} |")
    return "\n".join(lines)
