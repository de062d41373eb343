#!/bin/sh
# Runs the .pte fuzzer with the test programs as seeds in a fresh, writable
# corpus directory. Arguments go to libFuzzer (e.g. -runs=1000000).
set -eu
here="bench/fuzz"
[ -x "$here/pte_fuzzer_bin" ] || here="$0.runfiles/_main/bench/fuzz"
seeds="$(dirname "$here")/../tests/runtime"
corpus="$(mktemp -d "${TEST_TMPDIR:-/tmp}/pte_corpus.XXXXXX")"
cp "$seeds"/*.pte "$corpus"/
exec "$here/pte_fuzzer_bin" -timeout=10 -rss_limit_mb=2048 "$@" "$corpus"
