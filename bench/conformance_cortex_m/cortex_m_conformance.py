"""Runs ExecuTorch's own Cortex-M test cases (tests/conformance_cortex_m/
collect.py, with the dialect-only ones: the whole collected set) through
the same public rules as the sample in `bazel test //...`
(tests/conformance_cortex_m/cases.bzl: ethosu_model -> ethosu_firmware ->
ethosu_run_test on QEMU against PyTorch's quantized graph) on each NPU-less
Cortex-M, then prints the pass rate per CPU and the failures by class,
ExecuTorch's own xfail beside the SDK's known failures, and appends each
case's result to bench/conformance_cortex_m/results/.

bench/conformance_cortex_m/run.sh does the three steps from the host
shell: select and export (this, no flag), `tools/bazel test` on the slice,
report (this, --report).
"""

from __future__ import annotations

import datetime
import glob
import json
import os
import re
import sys

import build_events
import collect
import results
import stratify
from absl import app, flags
from known import KNOWN_FAILURES

FLAGS = flags.FLAGS
flags.DEFINE_multi_enum("cpu", [], ["m55", "m33", "m85"], "CPUs to run (repeatable; default all three).")
flags.DEFINE_string("file", None, "Only test files matching this regex (e.g. 'test_(add|lstm)$').")
flags.DEFINE_string("case", None, "Only cases whose name (package/file::function[id]) matches this regex.")
flags.DEFINE_bool("report", False, "Read the slice's test run and print and record its results.")
flags.DEFINE_bool("failed", False, "Only the cases whose latest result is not PASS (to rerun them after a fix).")
flags.DEFINE_bool(
    "resume", False, "Leave out the cases that have a result from this --commit on every selected CPU already."
)
flags.DEFINE_string(
    "commit", "unknown", "The tree's commit: recorded with each result (--report), the scope of --resume."
)
flags.DEFINE_float("wall_s", None, "With --report: the run's wall time.")

PACKAGE = "bench/conformance_cortex_m/slice"
RESULTS = "bench/conformance_cortex_m/results"
CPUS = ("m55", "m33", "m85")
# The runtime's error line, on the console (`ESDK ERROR <kind> ... operator <op>: why`)
# or as the run test reports it (`FAIL: the firmware reported: <kind> ...`).
_RUNTIME_ERROR = re.compile(r"(?:ESDK ERROR|firmware reported:) (\w+) .*?operator (\w+::\w+)")
# The AOT step's error line: `aot_compile: error: model ... failed while
# lowering: ... failed (<exception>): <why>`, or `error: <why>`.
_AOT_FAILED = re.compile(r"failed \((\w+)\): (.*?)(?: \(--verbose.*)?$")
_AOT_ERROR = re.compile(r"error: (.+?)(?:: |; |$)")


def classify(reason: str) -> str:
    """A failure's class: the runtime's error kind and operator when the
    firmware refused, the first clause of the AOT error, else the
    Ethos-U bench's classes (results.CLASSES)."""
    match = _RUNTIME_ERROR.search(reason)
    if match:
        return f"firmware {match.group(1)}: {match.group(2)}"
    cls = results.classify(reason)
    failed, error = _AOT_FAILED.search(reason), _AOT_ERROR.search(reason)
    if cls == "other" and failed:
        return f"build: {failed.group(1)}: {failed.group(2)[:80]}"
    if cls == "other" and error:
        return f"build: {error.group(1).strip()[:60]}"
    return cls


def select(cases: list[collect.Case]) -> dict[str, collect.Case]:
    """Target name -> case, name-sorted, after --file and --case."""
    if FLAGS.file:
        cases = [c for c in cases if re.search(FLAGS.file, c.file)]
    if FLAGS.case:
        cases = [c for c in cases if re.search(FLAGS.case, c.name)]
    out: dict[str, collect.Case] = {}
    for case in sorted(cases, key=lambda c: c.name):
        base = name = stratify.target_name(case)
        n = 1
        while name in out:  # the same id under two functions (div, div_int16)
            n += 1
            name = f"{base}_{n}"
        out[name] = case
    return out


def write_package(workspace: str, by_name: dict[str, collect.Case], cpus: list[str]) -> dict[str, str]:
    """Exports every case into the slice package and writes its BUILD and
    manifest; returns the cases that failed to export, with why."""
    directory = os.path.join(workspace, PACKAGE)
    os.makedirs(directory, exist_ok=True)
    for stale in glob.glob(os.path.join(directory, "*.pt2")) + glob.glob(os.path.join(directory, "events.json")):
        os.remove(stale)
    errors: dict[str, str] = {}
    for name, case in by_name.items():
        try:
            collect.export(case, os.path.join(directory, name + ".pt2"))
        except Exception as e:  # a case torch.export refuses: its result
            first = (str(e).strip().splitlines() or [""])[0]
            errors[name] = f"torch.export: {type(e).__name__}: {first}"[:300]
    manifest = {
        f"{n}_{cpu}": {"case": c.name, "cpu": cpu, "xfail": c.xfail, "export_error": errors.get(n)}
        for n, c in by_name.items()
        for cpu in cpus
    }
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    built = [n for n in by_name if n not in errors]
    with open(os.path.join(directory, "targets.txt"), "w") as f:
        f.write("".join(f"//{PACKAGE}:{n}_{cpu}_test\n" for n in built for cpu in cpus))
    rows = "".join(f'        ("{n}", "{by_name[n].name}"),\n' for n in built)
    with open(os.path.join(directory, "BUILD.bazel"), "w") as f:
        f.write(
            "# Generated by //bench/conformance_cortex_m; do not edit.\n"
            'load("//tests/conformance_cortex_m:cases.bzl", "cortex_m_conformance_cases")\n\n'
            f"cortex_m_conformance_cases(\n    cases = [\n{rows}    ],\n    cpus = {json.dumps(cpus)},\n"
            '    exported = True,\n    tags = ["manual"],\n)\n'
        )
    return errors


def records(manifest: dict[str, dict], outcome: dict[str, tuple[str, str]]) -> list[results.Record]:
    date = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    return [
        results.Record(
            case=entry["case"],
            npu=entry["cpu"],
            quantize="int8",
            outcome=outcome[name][0],
            cls=None if outcome[name][0] == "PASS" else classify(outcome[name][1]),
            reason=outcome[name][1],
            xfail=entry["xfail"],
            known=KNOWN_FAILURES.get(entry["case"]),
            commit=FLAGS.commit,
            date=date,
            shard="",
        )
        for name, entry in manifest.items()
    ]


def reclassified(records_: list[results.Record]) -> list[results.Record]:
    """results.load classifies with the Ethos-U classes: this bench's own."""
    for record in records_:
        record.cls = None if record.outcome == "PASS" else classify(record.reason)
    return records_


def report(workspace: str) -> int:
    directory = os.path.join(workspace, PACKAGE)
    path = os.path.join(directory, "manifest.json")
    if not os.path.exists(path):
        print(f"cortex_m_conformance: error: no {path}: select a slice first (run.sh)", file=sys.stderr)
        return 2
    with open(path) as f:
        manifest = json.load(f)
    outcome = build_events.read_events(
        os.path.join(directory, "events.json"), {n: e["export_error"] for n, e in manifest.items()}, PACKAGE
    )
    # No test result and no failed action: the run stopped before the case
    # (an interrupted slice); it gets no record, so --resume-style reruns
    # and the tables see only what ran.
    # A test the interrupted run cancelled has a result with no status.
    ran = {n: o for n, o in outcome.items() if o not in (("BUILD FAIL", "build failed"), ("FAIL", "?"))}
    if len(ran) < len(outcome):
        print(f"cortex_m_conformance: {len(outcome) - len(ran)} of {len(outcome)} cases did not run; not recorded")
    new = records({n: manifest[n] for n in ran}, ran)
    print("This run:\n" + results.tables(new))
    if FLAGS.wall_s is not None and new:
        print(f"\n{len(new)} case runs in {FLAGS.wall_s:.0f} s wall")
    results.append(results.file_for("", os.path.join(workspace, RESULTS)), new)
    directory = os.path.join(workspace, RESULTS)
    print("\nEvery case's latest result:\n" + results.tables(reclassified(results.load(directory))))
    # The figure to report: the runs on this one tree only.
    one_commit = reclassified(results.load(directory, FLAGS.commit))
    print(f"\nEvery result from commit {FLAGS.commit}:\n" + results.tables(one_commit))
    return 0


def main(argv: list[str]) -> int:
    del argv
    workspace = results.workspace("cortex_m_conformance", "bench/conformance_cortex_m/run.sh")
    if not workspace:
        return 2
    if FLAGS.report:
        return report(workspace)
    errors: list[str] = []
    by_name = select(collect.collect(errors, dialect=True))
    cpus = FLAGS.cpu or list(CPUS)
    if FLAGS.failed:
        failing = results.failing(os.path.join(workspace, RESULTS))
        by_name = {n: c for n, c in by_name.items() if any((c.name, cpu, "int8") in failing for cpu in cpus)}
    if FLAGS.resume:
        done = {r.key for r in results.load(os.path.join(workspace, RESULTS), FLAGS.commit)}
        by_name = {n: c for n, c in by_name.items() if any((c.name, cpu, "int8") not in done for cpu in cpus)}
    if not by_name:
        print("cortex_m_conformance: error: the flags select no case; widen --file/--case", file=sys.stderr)
        return 2
    export_errors = write_package(workspace, by_name, cpus)
    print(
        f"cortex_m_conformance: {len(by_name)} cases x {len(cpus)} CPUs -> //{PACKAGE}"
        + (f"; {len(export_errors)} failed to export" if export_errors else "")
        + (f"; not collected: {'; '.join(errors)}" if errors else "")
    )
    return 0


if __name__ == "__main__":
    app.run(main)
