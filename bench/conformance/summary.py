"""The conformance set's results so far: every case's latest result from
bench/conformance/results/*.jsonl (all runs, all sessions), as the pass
rate per target and the failures by class (paste into bench/RESULTS.md):

    tools/bazel run //bench/conformance:summary
    tools/bazel run //bench/conformance:summary -- --commit=abc1234   # one commit's run

With --commit only the records of runs on that tree count: the figure of
one run on one commit. The cases whose set-up fails while collecting (no
NPU or quantization known yet) are counted by class below the tables.
"""

from __future__ import annotations

import collections
import os
import sys

import collect
import known
import results
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_bool("coverage", True, "Also say how many of the collected cases have a result.")
flags.DEFINE_string("commit", None, "Only the results of runs on this commit (as run.sh records it).")


def refresh_markers(records: list[results.Record], cases: list[collect.Case]) -> None:
    """Each record's ExecuTorch xfail and SDK known class as the wheel and
    known.py say now, not as they were when it ran: a marker found later
    (say, the collector reading a test function's own xfail) counts for
    every record, and a run need not be repeated for it."""
    by_key = {(c.name, c.npu, c.quantization): c for c in cases}
    for record in records:
        case = by_key.get(record.key)
        if case is not None:
            record.xfail = case.xfail
        record.known = known.known_failure(record.case, record.npu)


def coverage(records: list[results.Record], cases: list[collect.Case]) -> str:
    """How much of the collected set the results cover, per NPU."""
    done = {r.key for r in records}
    total: collections.Counter[str] = collections.Counter()
    have: collections.Counter[str] = collections.Counter()
    for case in cases:
        total[case.npu] += 1
        have[case.npu] += (case.name, case.npu, case.quantization) in done
    commits = sorted({r.commit for r in records})
    return (
        "Results for "
        + ", ".join(f"{have[n]} of {total[n]} {results.TARGETS.get(n, n)} cases" for n in sorted(total))
        + f" (commits: {', '.join(commits)})."
    )


def collection_failures(errors: list[collect.CollectError]) -> str:
    """The cases that could not be collected, by class, ExecuTorch's xfail
    beside them: part of the set the figure is a fraction of."""
    if not errors:
        return "Collection failures: none."
    counts: collections.Counter[tuple[str, bool]] = collections.Counter((e.kind, e.xfail is not None) for e in errors)
    lines = [
        f"Collection failures: {len(errors)} (a case's set-up or a test file's import failed before any NPU ran)",
        "",
        "| class | cases | ExecuTorch xfail |",
        "|---|---|---|",
    ]
    for kind in sorted({k for k, _ in counts}):
        lines.append(f"| {kind} | {counts[(kind, False)] + counts[(kind, True)]} | {counts[(kind, True)]} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    del argv
    workspace = results.workspace("summary", "tools/bazel run //bench/conformance:summary")
    if not workspace:
        return 2
    try:
        records = results.load(os.path.join(workspace, results.DIRECTORY), commit=FLAGS.commit)
    except ValueError as e:
        print(f"summary: error: {e}", file=sys.stderr)
        return 2
    if not records:
        at = f" for commit {FLAGS.commit}" if FLAGS.commit else ""
        print(
            f"summary: error: no results{at} in {results.DIRECTORY}: run bench/conformance/run.sh first",
            file=sys.stderr,
        )
        return 2
    errors: list[collect.CollectError] = []
    cases = collect.collect(errors=errors)
    refresh_markers(records, cases)
    if FLAGS.coverage:
        print(coverage(records, cases) + "\n")
    print(results.tables(records))
    print("\n" + collection_failures(errors))
    return 0


if __name__ == "__main__":
    app.run(main)
