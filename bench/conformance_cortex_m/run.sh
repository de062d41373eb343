#!/usr/bin/env bash
# Runs ExecuTorch's cortex_m cases (the whole collected set, or a slice) on
# the NPU-less Cortex-M targets, prints the pass rates and failure classes
# and appends each case's result to bench/conformance_cortex_m/results/
# (cortex_m_conformance.py). From the workspace's host shell:
#
#   bench/conformance_cortex_m/run.sh --cpu=m55
#   bench/conformance_cortex_m/run.sh --cpu=m33 --cpu=m85 --file='test_(lstm|nn_modules)$'
#   bench/conformance_cortex_m/run.sh --failed --cpu=m55    # after a fix
#   bench/conformance_cortex_m/run.sh --resume --cpu=m55    # the cases not run on this commit yet
#
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
slice=bench/conformance_cortex_m/slice
# Bazel's parallel actions and QEMU runs (JOBS=N in the environment).
jobs=${JOBS:-2}
start=$(date +%s)
commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/conformance_cortex_m/results' || echo "-dirty")
tools/bazel run //bench/conformance_cortex_m -- --commit="$commit" "$@" || exit $?
# A failing case is a result, not an error: the report follows regardless.
tools/bazel test --keep_going --test_output=errors --jobs="$jobs" --local_test_jobs="$jobs" \
  --target_pattern_file="$slice/targets.txt" \
  --build_event_json_file="$PWD/$slice/events.json" 2>&1 | tee "$slice/console.log"
tools/bazel run //bench/conformance_cortex_m -- --report --commit="$commit" --wall_s=$(($(date +%s) - start))
