#!/usr/bin/env bash
# Runs a sanitizer-built test binary with its arguments.
set -euo pipefail
exec "$@"
