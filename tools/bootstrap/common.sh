# Shared settings of the offline build root. Sourced by tools/bazel and the
# bootstrap steps; defines paths only, runs nothing.

# Everything we install lives outside the checkout so that every clone of the
# repository (CI makes a new one each run) reuses it.
SDK_CACHE="${ETHOSU_SDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ethosu-sdk}"
SDK_ROOT="$SDK_CACHE/sid-root"          # Debian sid root with Bazel 7 + Arm GCC
SDK_LOGS="$SDK_CACHE/logs"
SDK_BAZEL_CACHE="$SDK_CACHE/bazel"      # --disk_cache and --repository_cache
SDK_LOCK="$SDK_CACHE/bootstrap.lock"

# The host interpreter the venv is made from; the venv runs inside the root
# with this prefix bind-mounted at the same path.
SDK_HOST_PYTHON="${ETHOSU_SDK_HOST_PYTHON:-$(command -v python3.11 || command -v python3)}"

sdk_log() { printf '[ethosu-sdk] %s\n' "$*" >&2; }
sdk_die() { printf '[ethosu-sdk] error: %s\n' "$*" >&2; exit 1; }

# The venv's directory is keyed by the lock file's hash, so a changed lock
# builds a new venv next to the old one instead of mutating it in place.
sdk_venv_dir() {
  local lock="$1"
  local key
  key=$(sha256sum "$lock" | cut -c1-16)
  printf '%s/venv-%s' "$SDK_CACHE" "$key"
}
