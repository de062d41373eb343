#!/usr/bin/env bash
# Runs a slice of the conformance cases and prints its pass rates and
# failure classes (conformance.py): select and write the slice, test it
# with --keep_going, read the results. From the workspace's host shell:
#
#   bench/conformance/run.sh --target=u85 --limit=50
#   bench/conformance/run.sh --shard=3/20
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
slice=bench/conformance/slice
tools/bazel run //bench/conformance -- "$@" || exit $?
# A failing case is a result, not an error: the report follows regardless.
# Bazel deletes failed actions' output files after the build: the console
# (console.log) keeps what they printed.
tools/bazel test --keep_going --test_output=errors --target_pattern_file="$slice/targets.txt" \
  --build_event_json_file="$PWD/$slice/events.json" 2>&1 | tee "$slice/console.log"
tools/bazel run //bench/conformance -- --report --results_json="$PWD/$slice/results.json"
