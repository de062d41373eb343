#!/usr/bin/env bash
# The MLPerf Tiny bench (bench.py), from the workspace's host shell:
#
#   bench/mlperf_tiny/run.sh [--models=ds_cnn_kws,resnet8_ic] [--targets=m4,u85] [--jobs=2]
#
# It calls tools/bazel, so it runs outside Bazel, on the SDK's pinned venv.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
venv="$(tools/bootstrap/bootstrap_venv.sh)"
PYTHONPATH="bench/mlperf_tiny:bench/figures" exec "$venv/bin/python3" bench/mlperf_tiny/bench.py "$@"
