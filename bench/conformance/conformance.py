"""Runs any slice of the collected ExecuTorch Ethos-U conformance cases
(tests/conformance/collect.py) through the same rules as the sample in
`bazel test //...` (tests/conformance/cases.bzl: export -> ethosu_model ->
ethosu_firmware -> ethosu_run_test on QEMU), then prints the pass rate per
target and a table of failure classes, ExecuTorch's own xfail beside ours.

Three steps, which bench/conformance/run.sh does in one from the host
shell (a Bazel cannot be started from inside `bazel run` in the offline
build root):

    tools/bazel run //bench/conformance -- --target=u85 --limit=50   # writes the slice
    tools/bazel test --keep_going --target_pattern_file=bench/conformance/slice/targets.txt \
        --build_event_json_file=bench/conformance/slice/events.json
    tools/bazel run //bench/conformance -- --report                  # the tables

The slice is a package (bench/conformance/slice/, untracked; its targets are
tagged manual so `//...` ignores them) with a manifest of its cases.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import os
import re
import sys
from urllib.parse import unquote, urlparse

import collect
import known
import stratify
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_multi_enum("target", [], ["u55", "u65", "u85"], "NPUs to run (repeatable; default all).")
flags.DEFINE_string("file", None, "Only operator files matching this regex (e.g. 'test_(add|sub)$').")
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

PACKAGE = "bench/conformance/slice"
# The first line of a failing action's or test's output that says why.
_REASON = re.compile(
    r"(error:|Error:|FAIL:|NPU fault|ProtocolError|TIMEOUT|timed out|not supported|"
    r"Missing operator|missing operator|differ)"
)
# Failure classes, in order of precedence: (class, pattern on the reason).
CLASSES = [
    ("export failed", re.compile(r"export_case|torch\.export|UserError|Unsupported", re.I)),
    ("console/protocol", re.compile(r"ProtocolError|well-formed run|out of order")),
    ("verification: not modelled", re.compile(r"skipped|not supported|not modelled|outside region")),
    ("verification: mismatch", re.compile(r"elements differ|verification", re.I)),
    ("missing CPU kernel", re.compile(r"[Mm]issing operator|kernel .*not found|Tensor_out|_out`")),
    ("NPU fault", re.compile(r"NPU fault")),
    ("wrong output", re.compile(r"FAIL:")),
    ("timeout", re.compile(r"TIMEOUT|timed out", re.I)),
]


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
    quantize: str
    xfail: str | None


def write_package(workspace: str, by_name: dict[str, collect.Case]) -> None:
    directory = os.path.join(workspace, PACKAGE)
    os.makedirs(directory, exist_ok=True)
    for stale in ("events.json",):  # a previous slice's results
        if os.path.exists(os.path.join(directory, stale)):
            os.remove(os.path.join(directory, stale))
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        json.dump(
            {n: dataclasses.asdict(Entry(c.name, c.npu, c.quantize, c.xfail)) for n, c in by_name.items()}, f, indent=1
        )
    with open(os.path.join(directory, "targets.txt"), "w") as f:
        f.write("".join(f"//{PACKAGE}:{n}_test\n" for n in by_name))
    rows = "".join('    ("%s", "%s", "%s", "%s"),\n' % (n, c.name, c.npu, c.quantize) for n, c in by_name.items())
    with open(os.path.join(directory, "BUILD.bazel"), "w") as f:
        f.write(
            "# Generated by //bench/conformance; do not edit.\n"
            'load("//tests/conformance:cases.bzl", "conformance_cases")\n\n'
            "conformance_cases(cases = [\n" + rows + '], tags = ["manual"])\n'
        )


def _path(uri: str) -> str:
    return unquote(urlparse(uri).path)


def _reason(path: str) -> str:
    try:
        with open(path, errors="replace") as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        return "(no output)"
    for line in lines:
        if _REASON.search(line) and "PASS" not in line:
            return line[:300]
    return lines[-1][:300] if lines else "(no output)"


def console_reasons(path: str) -> dict[str, str]:
    """Target name -> the first line saying why, after each failed action's
    `ERROR: ... (//bench/conformance/slice:NAME) failed` in the console."""
    out: dict[str, str] = {}
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    head = re.compile(r"^ERROR: .*\(//" + re.escape(PACKAGE) + r":([A-Za-z0-9_]+)\) failed")
    for i, line in enumerate(lines):
        match = head.match(line)
        if not match:
            continue
        for follow in lines[i + 1 : i + 40]:
            if follow.startswith(("ERROR:", "[", "INFO:")):
                break
            if not follow.startswith(" ") and _REASON.search(follow):
                out.setdefault(match.group(1), follow.strip()[:300])
                break
    return out


def read_events(events: str, by_name: dict[str, Entry]) -> dict[str, tuple[str, str]]:
    """(outcome, reason) per target name: PASS, BUILD FAIL or FAIL."""
    console = console_reasons(os.path.join(os.path.dirname(events), "console.log"))
    outcome: dict[str, tuple[str, str]] = {}
    build_errors: dict[str, str] = {}
    with open(events) as f:
        for line in f:
            event = json.loads(line)
            ident = event.get("id", {})
            # Only failed actions are reported; protobuf's JSON leaves out
            # `success: false`, so a missing field is a failure.
            if "actionCompleted" in ident and not event.get("action", {}).get("success", False):
                label = ident["actionCompleted"].get("label", "")
                # The verification says why on stdout, other tools on stderr.
                logs = [event["action"][s]["uri"] for s in ("stderr", "stdout") if s in event["action"]]
                reasons = [r for r in (_reason(_path(u)) for u in logs) if r != "(no output)"]
                name = label.rsplit(":", 1)[-1]
                build_errors[name] = reasons[0] if reasons else console.get(name, "(no output)")
            elif "testResult" in ident:
                name = ident["testResult"]["label"].rsplit(":", 1)[-1].removesuffix("_test")
                result = event.get("testResult", {})
                log = next((o["uri"] for o in result.get("testActionOutput", []) if o.get("name") == "test.log"), None)
                if result.get("status") == "PASSED":
                    outcome[name] = ("PASS", "")
                else:
                    outcome[name] = ("FAIL", _reason(_path(log)) if log else result.get("status", "?"))
    for name in by_name:
        if name not in outcome:
            reason = next((r for label, r in build_errors.items() if label.startswith(name)), "build failed")
            outcome[name] = ("BUILD FAIL", reason)
    return outcome


def classify(reason: str) -> str:
    return next((cls for cls, pattern in CLASSES if pattern.search(reason)), "other")


def report(by_name: dict[str, Entry], outcome: dict[str, tuple[str, str]]) -> str:
    lines = [
        "| target | cases | pass | pass rate | ExecuTorch expects to pass | of those pass |",
        "|---|---|---|---|---|---|",
    ]
    per_npu: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    for name, entry in by_name.items():
        row = per_npu[entry.npu]
        passed = outcome[name][0] == "PASS"
        row[0] += 1
        row[1] += passed
        if entry.xfail is None:
            row[2] += 1
            row[3] += passed
    for npu, (n, p, e, ep) in sorted(per_npu.items()):
        lines.append(
            f"| {collect.TARGETS[npu]} | {n} | {p} | {100 * p / n:.1f}% | {e} | "
            f"{ep} ({100 * ep / e if e else 0:.1f}%) |"
        )
    failures: collections.Counter[tuple[str, str, str]] = collections.Counter()
    examples: dict[tuple[str, str, str], str] = {}
    for name, entry in by_name.items():
        state, reason = outcome[name]
        if state == "PASS":
            continue
        key = (classify(reason), "xfail" if entry.xfail else "-", known.known_failure(entry.case, entry.npu) or "-")
        failures[key] += 1
        examples.setdefault(key, f"{entry.case} ({entry.npu}): {reason}")
    lines += [
        "",
        "| failure class | ExecuTorch xfail | SDK known (known.py) | cases | example |",
        "|---|---|---|---|---|",
    ]
    for key, count in sorted(failures.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {count} | {examples[key].replace('|', '/')} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    del argv
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    if not workspace:
        print("conformance: error: run it with `tools/bazel run //bench/conformance -- ...`", file=sys.stderr)
        return 2
    directory = os.path.join(workspace, PACKAGE)
    if FLAGS.report:
        events = os.path.join(directory, "events.json")
        if not os.path.exists(events):
            print(
                f"conformance: error: no {events}: run the slice's tests first (see bench/conformance/run.sh)",
                file=sys.stderr,
            )
            return 2
        with open(os.path.join(directory, "manifest.json")) as f:
            by_entry = {n: Entry(**e) for n, e in json.load(f).items()}
        outcome = read_events(events, by_entry)
        print(report(by_entry, outcome))
        if FLAGS.results_json:
            with open(FLAGS.results_json, "w") as f:
                json.dump(
                    {
                        n: {
                            **dataclasses.asdict(e),
                            "known": known.known_failure(e.case, e.npu),
                            "outcome": outcome[n][0],
                            "reason": outcome[n][1],
                            "class": None if outcome[n][0] == "PASS" else classify(outcome[n][1]),
                        }
                        for n, e in by_entry.items()
                    },
                    f,
                    indent=1,
                )
        return 0
    errors: list[str] = []
    cases = select(collect.collect(errors=errors))
    if not cases:
        print("conformance: error: the flags select no case; widen --target/--file/--offset", file=sys.stderr)
        return 2
    by_name = names(cases)
    write_package(workspace, by_name)
    print(
        f"conformance: {len(by_name)} cases -> //{PACKAGE} (targets.txt)"
        + (f"; {len(errors)} could not be collected" if errors else "")
    )
    if FLAGS.list:
        for name, case in by_name.items():
            print(f"  {name}: {case.name} {case.npu} {case.quantize}" + (f" xfail: {case.xfail}" if case.xfail else ""))
    return 0


if __name__ == "__main__":
    app.run(main)
