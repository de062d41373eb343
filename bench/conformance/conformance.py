"""Runs any slice of the collected ExecuTorch Ethos-U conformance cases
(tests/conformance/collect.py) through the same rules as the sample in
`bazel test //...` (tests/conformance/cases.bzl: ethosu_model with
verify = "fail" -> ethosu_firmware -> ethosu_run_test on QEMU), then prints
the pass rate per target and a table of failure classes, ExecuTorch's own
xfail beside ours, and appends each case's result to
bench/conformance/results/ (summary.py: all results so far).

Three steps, which bench/conformance/run.sh does in one from the host
shell (a Bazel cannot be started from inside `bazel run` in the offline
build root):

    tools/bazel run //bench/conformance -- --target=u85 --limit=50   # writes the slice
    tools/bazel test --keep_going --target_pattern_file=bench/conformance/slice/targets.txt \
        --build_event_json_file=bench/conformance/slice/events.json
    tools/bazel run //bench/conformance -- --report --commit=...     # tables, results

The first step also exports every selected case's `.pt2` in this one
process (collect.export, the code export_case runs per case): torch and
the test files are imported once for the slice, not once per case. The
slice is a package (bench/conformance/slice/, untracked; its targets are
tagged manual so `//...` ignores them) with a manifest of its cases.
"""

from __future__ import annotations

import dataclasses
import datetime
import glob
import json
import os
import re
import sys

import build_events
import collect
import known
import results
import stratify
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_multi_enum("target", [], ["u55", "u65", "u85"], "NPUs to run (repeatable; default all).")
flags.DEFINE_string("file", None, "Only operator files matching this regex (e.g. 'test_(add|sub)$').")
flags.DEFINE_string("case", None, "Only cases whose name (file::function[id]) matches this regex.")
flags.DEFINE_bool(
    "stratified",
    False,
    "Only the stratified list (one case per operator file, NPU and "
    "quantization mode) that tests/conformance/sample.bzl is a stratum of.",
)
flags.DEFINE_integer("offset", 0, "Skip this many cases of the (name-sorted) selection.")
flags.DEFINE_integer("limit", None, "Run at most this many cases after --offset.")
flags.DEFINE_string("shard", None, "I/N: run the I-th (0-based) of N interleaved shards of the selection.")
flags.DEFINE_string("results_json", None, "Also write each case's outcome here.")
flags.DEFINE_bool(
    "report",
    False,
    "Read the slice's manifest and the test run's events.json and print the "
    "pass rates and failure classes (after `tools/bazel test` on the slice).",
)
flags.DEFINE_bool("list", False, "Also print the selected cases.")
flags.DEFINE_bool(
    "resume",
    False,
    "Leave out the cases that already have a result of this --commit in bench/conformance/results/ "
    "(a run on one commit, spread over sessions; run.sh passes the commit).",
)
flags.DEFINE_bool(
    "failed",
    False,
    "Only the cases whose latest result in bench/conformance/results/ is not PASS "
    "(to run them again after a fix; results go to slices.jsonl).",
)
flags.DEFINE_string(
    "commit", "unknown", "The tree's commit: recorded with each result (--report), and the run --resume continues."
)
flags.DEFINE_string("selection", "", "With --report: the selection's flags, which name the results file.")
flags.DEFINE_float("wall_s", None, "With --report: the run's wall time, for the per-case cost line.")

PACKAGE = "bench/conformance/slice"


def _shard(spec: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d+)/(\d+)", spec)
    if not match or int(match.group(1)) >= int(match.group(2)):
        raise app.UsageError(f"--shard={spec}: expected I/N with 0 <= I < N, e.g. --shard=0/10")
    return int(match.group(1)), int(match.group(2))


def select(cases: list[collect.Case]) -> list[collect.Case]:
    if FLAGS.target:
        cases = [c for c in cases if c.npu in FLAGS.target]
    if FLAGS.file:
        cases = [c for c in cases if re.search(FLAGS.file, c.file)]
    if FLAGS.case:
        cases = [c for c in cases if re.search(FLAGS.case, c.name)]
    cases = stratify.stratified(cases) if FLAGS.stratified else sorted(cases, key=lambda c: (c.name, c.npu))
    if FLAGS.shard:
        index, count = _shard(FLAGS.shard)
        cases = cases[index::count]
    cases = cases[FLAGS.offset :]
    return cases if FLAGS.limit is None else cases[: FLAGS.limit]


def names(cases: list[collect.Case]) -> dict[str, collect.Case]:
    """Unique target names (the same test function may repeat an id)."""
    out: dict[str, collect.Case] = {}
    for case in cases:
        base = stratify.target_name(case) + "_" + case.npu
        name, n = base, 1
        while name in out:
            n += 1
            name = f"{base}_{n}"
        out[name] = case
    return out


@dataclasses.dataclass
class Entry:
    """A case of the slice, as its manifest keeps it."""

    case: str
    npu: str
    quantize: str  # the SDK's quantization label (collect.Case.quantization)
    xfail: str | None
    # Set when the case never reached Bazel: why its export failed.
    export_error: str | None = None
    # Set when the SDK cannot express the case's quantization: never built.
    unexpressible: str | None = None


def export_all(directory: str, by_name: dict[str, collect.Case]) -> dict[str, str]:
    """Exports each case to `<directory>/<name>.pt2` in this process; returns
    the export error line of each case that failed."""
    errors: dict[str, str] = {}
    for i, (name, case) in enumerate(by_name.items(), 1):
        try:
            collect.export(case, os.path.join(directory, name + ".pt2"))
        except Exception as e:  # a case torch.export refuses: its result
            first = (str(e).strip().splitlines() or [""])[0]
            errors[name] = f"torch.export: {type(e).__name__}: {first}"[:300]
        if i % 50 == 0:
            print(f"conformance: exported {i} of {len(by_name)}", flush=True)
    return errors


def write_package(workspace: str, by_name: dict[str, collect.Case]) -> dict[str, str]:
    """The slice's package: every case the SDK can express exported, the
    exported ones as targets; returns the export errors."""
    directory = os.path.join(workspace, PACKAGE)
    os.makedirs(directory, exist_ok=True)
    # A previous slice's results and programs.
    for stale in glob.glob(os.path.join(directory, "*.pt2")) + [os.path.join(directory, "events.json")]:
        if os.path.exists(stale):
            os.remove(stale)
    errors = export_all(directory, {n: c for n, c in by_name.items() if not c.unexpressible})
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(
            {
                n: dataclasses.asdict(Entry(c.name, c.npu, c.quantization, c.xfail, errors.get(n), c.unexpressible))
                for n, c in by_name.items()
            },
            f,
            indent=1,
        )
    built = {n: c for n, c in by_name.items() if n not in errors and not c.unexpressible}
    with open(os.path.join(directory, "targets.txt"), "w") as f:
        f.write("".join(f"//{PACKAGE}:{n}_test\n" for n in built))
    rows = "".join('    ("%s", "%s", "%s", "%s"),\n' % (n, c.name, c.npu, c.quantization) for n, c in built.items())
    with open(os.path.join(directory, "BUILD.bazel"), "w") as f:
        f.write(
            "# Generated by //bench/conformance; do not edit.\n"
            'load("//tests/conformance:cases.bzl", "conformance_cases")\n\n'
            "conformance_cases(\n    cases = [\n"
            + rows.replace("    (", "        (")
            + '    ],\n    exported = True,\n    tags = ["manual"],\n)\n'
        )
    return errors


def to_records(by_name: dict[str, Entry], outcome: dict[str, tuple[str, str]]) -> list[results.Record]:
    date = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return [
        results.Record(
            case=e.case,
            npu=e.npu,
            quantize=e.quantize,
            outcome=outcome[n][0],
            cls=None if outcome[n][0] == "PASS" else results.classify(outcome[n][1]),
            reason=outcome[n][1],
            xfail=e.xfail,
            known=known.known_failure(e.case, e.npu),
            commit=FLAGS.commit,
            date=date,
            shard=FLAGS.selection,
        )
        for n, e in by_name.items()
    ]


def report(workspace: str, directory: str) -> int:
    """Reads the slice's results, prints its tables, appends its records."""
    events = os.path.join(directory, "events.json")
    manifest = os.path.join(directory, "manifest.json")
    if not os.path.exists(manifest):
        print(
            f"conformance: error: no {manifest}: select a slice first (see bench/conformance/run.sh)", file=sys.stderr
        )
        return 2
    with open(manifest) as f:
        by_entry = {n: Entry(**e) for n, e in json.load(f).items()}
    if not os.path.exists(events) and any(e.export_error is None and not e.unexpressible for e in by_entry.values()):
        print(
            f"conformance: error: no {events}: run the slice's tests first (see bench/conformance/run.sh)",
            file=sys.stderr,
        )
        return 2
    outcome = build_events.read_events(events, {n: e.export_error for n, e in by_entry.items()}, PACKAGE)
    # A quantization the SDK cannot express: a failure of its own class, never run another way.
    outcome.update({n: ("NOT RUN", e.unexpressible) for n, e in by_entry.items() if e.unexpressible})
    records = to_records(by_entry, outcome)
    print(results.tables(records))
    if FLAGS.wall_s is not None and records:
        print(f"\n{len(records)} cases in {FLAGS.wall_s:.0f} s wall: {FLAGS.wall_s / len(records):.1f} s per case")
    path = os.path.join(workspace, results.file_for(FLAGS.selection))
    results.append(path, records)
    print(f"conformance: {len(records)} results appended to {os.path.relpath(path, workspace)}")
    if FLAGS.results_json:
        with open(FLAGS.results_json, "w") as f:
            json.dump({n: dataclasses.asdict(r) for n, r in zip(by_entry, records)}, f, indent=1)
    return 0


def main(argv: list[str]) -> int:
    del argv
    workspace = results.workspace("conformance", "tools/bazel run //bench/conformance -- ...")
    if not workspace:
        return 2
    directory = os.path.join(workspace, PACKAGE)
    if FLAGS.report:
        return report(workspace, directory)
    errors: list[collect.CollectError] = []
    cases = select(collect.collect(errors=errors))
    if not cases:
        print("conformance: error: the flags select no case; widen --target/--file/--offset", file=sys.stderr)
        return 2
    by_name = names(cases)
    if FLAGS.resume:
        if FLAGS.commit == "unknown" or FLAGS.commit.endswith("-dirty"):
            print(
                f"conformance: error: --resume continues one commit's run: pass a clean tree's --commit "
                f"(got {FLAGS.commit}; bench/conformance/run.sh passes it)",
                file=sys.stderr,
            )
            return 2
        done = {r.key for r in results.load(os.path.join(workspace, results.DIRECTORY), commit=FLAGS.commit)}
        by_name = {n: c for n, c in by_name.items() if (c.name, c.npu, c.quantization) not in done}
        if not by_name:
            print("conformance: every selected case has a result already (--resume); nothing to run")
            # An empty slice: the report step then records nothing.
    if FLAGS.failed:
        failing = results.failing(os.path.join(workspace, results.DIRECTORY))
        by_name = {n: c for n, c in by_name.items() if (c.name, c.npu, c.quantization) in failing}
        if not by_name:
            print("conformance: no selected case has a failing result (--failed); nothing to run")
    export_errors = write_package(workspace, by_name)
    unexpressible = sum(1 for c in by_name.values() if c.unexpressible)
    print(
        f"conformance: {len(by_name)} cases -> //{PACKAGE} (targets.txt)"
        + (f"; {unexpressible} with a quantization the SDK cannot express (not run)" if unexpressible else "")
        + (f"; {len(export_errors)} failed to export" if export_errors else "")
        + (f"; {len(errors)} could not be collected" if errors else "")
    )
    if FLAGS.list:
        for name, case in by_name.items():
            print(
                f"  {name}: {case.name} {case.npu} {case.quantization}"
                + (f" xfail: {case.xfail}" if case.xfail else "")
            )
    return 0


if __name__ == "__main__":
    app.run(main)
