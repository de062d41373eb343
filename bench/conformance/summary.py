"""The conformance set's results so far: every case's latest result from
bench/conformance/results/*.jsonl (all runs, all sessions), as the pass
rate per target and the failures by class (paste into bench/RESULTS.md):

    tools/bazel run //bench/conformance:summary
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


def main(argv: list[str]) -> int:
    del argv
    workspace = results.workspace("summary", "tools/bazel run //bench/conformance:summary")
    if not workspace:
        return 2
    try:
        records = results.load(os.path.join(workspace, results.DIRECTORY))
    except ValueError as e:
        print(f"summary: error: {e}", file=sys.stderr)
        return 2
    if not records:
        print(f"summary: error: no results in {results.DIRECTORY}: run bench/conformance/run.sh first", file=sys.stderr)
        return 2
    cases = collect.collect()
    refresh_markers(records, cases)
    if FLAGS.coverage:
        print(coverage(records, cases) + "\n")
    print(results.tables(records))
    return 0


if __name__ == "__main__":
    app.run(main)
