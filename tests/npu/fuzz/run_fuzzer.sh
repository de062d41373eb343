#!/usr/bin/env bash
# run_fuzzer.sh FUZZER SEED_PAYLOAD...: a bounded, reproducible libFuzzer run.
# Seeds are each payload as a whole (mode byte 0) and as a raw command stream
# (mode byte 1). Extra libFuzzer flags may come from FUZZ_FLAGS.
set -euo pipefail
fuzzer="$1"
shift
corpus="${TEST_TMPDIR:-$(mktemp -d)}/corpus"
mkdir -p "$corpus"
i=0
for payload in "$@"; do
  { printf '\0'; cat "$payload"; } > "$corpus/payload$i"
  { printf '\1'; tail -c +65 "$payload"; } > "$corpus/commands$i"
  i=$((i + 1))
done
# shellcheck disable=SC2086
artifacts="${TEST_UNDECLARED_OUTPUTS_DIR:-${TEST_TMPDIR:-/tmp}}/"
exec "$fuzzer" -seed=1 -artifact_prefix="$artifacts" -max_total_time="${FUZZ_SECONDS:-20}" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 ${FUZZ_FLAGS:-} "$corpus"
