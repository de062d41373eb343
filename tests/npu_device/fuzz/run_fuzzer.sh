#!/usr/bin/env bash
# run_fuzzer.sh FUZZER SEED_PAYLOAD... [-- REGRESSION...]: a bounded, reproducible libFuzzer run
# of the device fuzzer. Seeds: each payload whole (mode 1, no extra register
# writes), and a bare STOP stream on every configuration (mode 0). Extra
# libFuzzer flags may come from FUZZ_FLAGS, the duration from FUZZ_SECONDS.
set -euo pipefail
fuzzer="$1"
shift
corpus="${TEST_TMPDIR:-$(mktemp -d)}/corpus"
mkdir -p "$corpus"
i=0
for payload in "$@"; do
  # After "--": inputs of past findings, run as they are (regressions/).
  if [ "$payload" = "--" ]; then
    regressions=1
    continue
  fi
  if [ -n "${regressions:-}" ]; then
    cp "$payload" "$corpus/"
    continue
  fi
  { printf '\1\0'; cat "$payload"; } > "$corpus/payload$i"
  i=$((i + 1))
done
for config in 0 1 2 3 4 5 6 7 8 9 10; do
  # mode 0, config, no writes, a 4-byte stream: NPU_OP_STOP.
  printf "\\0\\$(printf '%03o' "$config")\\0\\4\\0\\0\\0\\0\\0" > "$corpus/stop$config"
done
artifacts="${TEST_UNDECLARED_OUTPUTS_DIR:-${TEST_TMPDIR:-/tmp}}/"
# shellcheck disable=SC2086
exec "$fuzzer" -seed=1 -artifact_prefix="$artifacts" -max_total_time="${FUZZ_SECONDS:-20}" \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 ${FUZZ_FLAGS:-} "$corpus"
