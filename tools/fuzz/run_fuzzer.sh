#!/usr/bin/env bash
# run_fuzzer.sh FUZZER INPUT... [-- LIBFUZZER_FLAG...]: a bounded,
# reproducible libFuzzer run (tools/rules/fuzz.bzl's smoke tests and long runs).
#
# The inputs (seed corpus and regression inputs) are copied into a fresh,
# writable corpus directory: libFuzzer runs every one of them first, so a
# past finding fails the run before any fuzzing, then mutates them. Defaults:
# fixed seed, 10 s per input, 2 GiB; flags after "--" come later and win.
set -euo pipefail
fuzzer="$1"
shift
# Under `bazel run` (a long run) not Bazel's TEST_TMPDIR: the next Bazel
# command in the workspace deletes that directory, corpus and all.
if [ -n "${BUILD_WORKSPACE_DIRECTORY:-}" ] || [ -z "${TEST_TMPDIR:-}" ]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX")"
else
  work="$TEST_TMPDIR"
fi
corpus="$work/corpus"
mkdir -p "$corpus"
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  # Seeds with the same name from different folders stay apart.
  cp "$1" "$corpus/$(printf '%s' "$1" | md5sum | cut -c1-8)-$(basename "$1")"
  shift
done
[ $# -gt 0 ] && shift
# Crash inputs go where Bazel keeps a failed test's outputs (a test), or
# beside the corpus (a long run).
if [ "$work" = "${TEST_TMPDIR:-}" ]; then
  artifacts="${TEST_UNDECLARED_OUTPUTS_DIR:-$work}/"
else
  artifacts="$work/"
fi
echo "corpus: $(find "$corpus" -type f | wc -l) inputs in $corpus; flags: $*" >&2
# The build root has no llvm-symbolizer; binutils' addr2line gives the
# sanitizers' reports file:line frames.
if [ -x /usr/bin/addr2line ]; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}external_symbolizer_path=/usr/bin/addr2line"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:external_symbolizer_path=/usr/bin/addr2line"
fi
exec "$fuzzer" -seed=1 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts" "$@" "$corpus"
