#!/usr/bin/env bash
# Runs a slice of the conformance cases, prints its pass rates and failure
# classes and appends each case's result to bench/conformance/results/
# (conformance.py): select and export the slice in one Python process,
# test it with --keep_going, read the results. From the workspace's host
# shell (at nice 19 on a shared machine: start the Bazel server under it,
# `tools/bazel shutdown` first):
#
#   bench/conformance/run.sh --target=u85 --limit=50
#   bench/conformance/run.sh --shard=3/20 --resume --jobs=2
#
# --jobs=N (default 2): Bazel's parallel actions and QEMU runs.
# --resume: leave out the cases that already have a result from this commit
#   (one commit's run over several sessions; results of other commits do
#   not count, `summary -- --commit=...` tables the run).
# --failed: only the cases whose latest result is a failure (after a fix):
#   bench/conformance/run.sh --failed
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
slice=bench/conformance/slice
jobs=2
selection=()
args=()
for arg in "$@"; do
  case "$arg" in
    --jobs=*) jobs="${arg#--jobs=}" ;;
    --shard=*) selection+=("$arg"); args+=("$arg") ;;
    *) args+=("$arg") ;;
  esac
done
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "run.sh: error: --jobs=$jobs: expected a positive integer, e.g. --jobs=2" >&2
  exit 2
fi
start=$(date +%s)
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/conformance/results' || echo "-dirty")
tools/bazel run //bench/conformance -- --commit="$commit" "${args[@]}" || exit $?
# A failing case is a result, not an error: the report follows regardless.
# Bazel deletes failed actions' output files after the build: the console
# (console.log) keeps what they printed.
if [[ -s "$slice/targets.txt" ]]; then
  tools/bazel test --keep_going --test_output=errors --jobs="$jobs" --local_test_jobs="$jobs" \
    --target_pattern_file="$slice/targets.txt" \
    --build_event_json_file="$PWD/$slice/events.json" 2>&1 | tee "$slice/console.log"
fi
tools/bazel run //bench/conformance -- --report --results_json="$PWD/$slice/results.json" \
  --commit="$commit" --selection="${selection[*]:-}" --wall_s=$(($(date +%s) - start))
