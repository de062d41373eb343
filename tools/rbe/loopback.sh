#!/usr/bin/env bash
# Remote execution on this machine, to try `--config=rbe` or to model a
# team's service on: BuildGrid (the REAPI server) with PostgreSQL for its
# scheduler, buildbox-casd and two buildbox-worker bots that run actions with
# buildbox-run-hosttools, all on loopback inside the offline build root. The
# bots see the SDK's venv at its own path, as tools/bazel's Bazel does:
# actions name it, and the root's toolchains, by absolute path.
#
#   tools/rbe/loopback.sh start   # then: tools/bazel build --config=rbe //examples:mv2_u85
#   tools/rbe/loopback.sh stop
#
# First start: installs tools/rbe/root-packages.txt into the root and
# BuildGrid (tools/rbe/requirements.lock; it needs Python >= 3.13, so the
# root's, not the SDK's 3.11 venv) into /opt/ethosu-sdk/buildgrid-<key>.
# State and logs: /var/lib/ethosu-rbe inside the root.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bootstrap="$here/../bootstrap"
# shellcheck source=../bootstrap/common.sh
source "$bootstrap/common.sh"

state=/var/lib/ethosu-rbe
port=50051  # BuildGrid, as --config=rbe expects
bots=2

stop() {
  local pid pids
  pids="$(cat "$SDK_ROOT$state/pids" 2>/dev/null || true)"
  for pid in $pids; do
    kill "$pid" 2>/dev/null || true
  done
  # Bots finish their session first (about 10 s); then KILL.
  local deadline=$((SECONDS + 20))
  for pid in $pids; do
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -f "$SDK_ROOT$state/pids"
  # PostgreSQL's fast shutdown.
  pid="$(head -n 1 "$SDK_ROOT$state/pg/data/postmaster.pid" 2>/dev/null || true)"
  [ -z "$pid" ] || kill -INT "$pid" 2>/dev/null || true
}

case "${1:-}" in
  start) ;;
  stop) stop; exit 0 ;;
  *) sdk_die "usage: tools/rbe/loopback.sh start|stop" ;;
esac

[ "$(id -u)" = 0 ] || sdk_die "remote execution on loopback runs inside the build root: it needs root (chroot)"
[ -x "$SDK_ROOT/usr/bin/bazel" ] || sdk_die "no build root at $SDK_ROOT yet: run tools/bazel version first"
[ ! -s "$SDK_ROOT$state/pids" ] || sdk_die "already started (pids in $SDK_ROOT$state/pids): tools/rbe/loopback.sh stop first"

sdk_root_install_missing "$SDK_ROOT" "$here/root-packages.txt"

# BuildGrid's venv, keyed by its lock like the SDK's.
lock="$here/requirements.lock"
buildgrid="$SDK_ROOT_OPT/buildgrid-$(sha256sum "$lock" | cut -c1-16)"
if [ ! -f "$SDK_ROOT$buildgrid/.complete" ]; then
  sdk_log "installing BuildGrid into the root: $buildgrid (log: $SDK_LOGS/buildgrid-pip.log)"
  rm -rf "$SDK_ROOT$buildgrid"
  mkdir -p "$SDK_ROOT$buildgrid" "$SDK_LOGS"
  cp "$lock" "$SDK_ROOT$buildgrid/requirements.lock"
  # Downloaded by the host's pip (its index settings), for the root's
  # CPython 3.14, then installed offline inside the root.
  py="$(sdk_in_root "$SDK_ROOT" python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  platforms=()
  for tag in manylinux_2_17 manylinux2014 manylinux_2_28 manylinux_2_34; do platforms+=(--platform "${tag}_x86_64"); done
  { "$SDK_HOST_PYTHON" -m pip download --disable-pip-version-check --no-input --no-deps --require-hashes \
      --only-binary=:all: --python-version "$py" --implementation cp "${platforms[@]}" \
      -r "$lock" -d "$SDK_ROOT$buildgrid/wheels" &&
    sdk_in_root "$SDK_ROOT" python3 -m venv "$buildgrid" &&
    sdk_in_root "$SDK_ROOT" "$buildgrid/bin/pip" install --disable-pip-version-check --no-index --require-hashes \
      --no-deps --find-links "$buildgrid/wheels" -r "$buildgrid/requirements.lock"; } > "$SDK_LOGS/buildgrid-pip.log" 2>&1 ||
    sdk_die "could not install BuildGrid; see $SDK_LOGS/buildgrid-pip.log"
  rm -rf "$SDK_ROOT$buildgrid/wheels"
  touch "$SDK_ROOT$buildgrid/.complete"
fi

venv="$("$bootstrap/bootstrap_venv.sh")"
python_prefix="$(sed -n 's/^home = \(.*\)\/bin$/\1/p' "$venv/pyvenv.cfg")"
mkdir -p "$SDK_ROOT$state" "$SDK_ROOT$venv" "$SDK_ROOT$python_prefix"

# In-memory CAS and action cache (gone at stop); the scheduler's queue in
# PostgreSQL over its Unix socket. Jobs name no platform: every bot matches.
database="postgresql://bgd@/bgd?host=$state/pg"
cat > "$SDK_ROOT$state/buildgrid.yml" <<EOF
server:
  - !channel
    address: "127.0.0.1:$port"
    insecure-mode: true
connections:
  - !sql-connection &sql
    connection-string: "$database"
storages:
  - !lru-storage &cas
    size: 4G
caches:
  - !lru-action-cache &ac
    storage: *cas
    max-cached-refs: 100000
    allow-updates: true
    cache-failed-actions: false
schedulers:
  - !sql-scheduler &scheduler
    sql: *sql
    action-cache: *ac
    storage: *cas
instances:
  - name: ""
    services:
      - !action-cache
        cache: *ac
      - !execution
        scheduler: *scheduler
      - !cas
        storage: *cas
      - !bytestream
        storage: *cas
# Each waiting Execute holds a thread: room for Bazel's --jobs of waits plus
# the bots' and the uploads' calls.
thread-pool-size: 64
EOF

# Runs inside the root. PostgreSQL refuses to run as root: its own user.
cat > "$SDK_ROOT$state/start.sh" <<EOF
set -euo pipefail
cd $state
pg=\$(ls -d /usr/lib/postgresql/*/bin | tail -n 1)
mkdir -p pg && chown postgres pg
[ -d pg/data ] || runuser -u postgres -- "\$pg/initdb" -D $state/pg/data -A trust -U bgd > initdb.log
runuser -u postgres -- "\$pg/pg_ctl" -D $state/pg/data -o "-k $state/pg -c listen_addresses=''" -l $state/pg/postgres.log -w start > /dev/null
runuser -u postgres -- "\$pg/psql" -h $state/pg -U bgd -d postgres -qtc "select 1 from pg_database where datname = 'bgd'" | grep -q 1 ||
  runuser -u postgres -- "\$pg/createdb" -h $state/pg -U bgd bgd
$buildgrid/bin/bgd migrate apply "$database" > migrate.log 2>&1
$buildgrid/bin/bgd server start buildgrid.yml > buildgrid.log 2>&1 &
echo \$! > pids
for _ in \$(seq 120); do (exec 3<> /dev/tcp/127.0.0.1/$port) 2> /dev/null && break; sleep 0.5; done
(exec 3<> /dev/tcp/127.0.0.1/$port) 2> /dev/null || { echo "BuildGrid did not listen; see $state/buildgrid.log" >&2; exit 1; }
buildbox-casd --cas-remote=http://127.0.0.1:$port --bind=unix:$state/casd.sock $state/casd > casd.log 2>&1 &
echo \$! >> pids
for i in \$(seq $bots); do
  buildbox-worker --bots-remote=http://127.0.0.1:$port --cas-remote=unix:$state/casd.sock \
    --buildbox-run=buildbox-run-hosttools bot-\$i > bot-\$i.log 2>&1 &
  echo \$! >> pids
done
EOF

# The processes keep the private mount namespace (and so the venv's mount)
# alive; nothing stays mounted on the host.
unshare --mount --propagation private -- /bin/bash -c '
  set -e
  root="$1"; shift
  mount --rbind /dev "$root/dev"
  mount -t proc proc "$root/proc"
  while [ "$1" != "--" ]; do mount --bind "$1" "$root$1"; shift; done
  shift
  exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
' launcher "$SDK_ROOT" "$venv" "$python_prefix" -- /bin/bash "$state/start.sh" ||
  { stop; sdk_die "remote execution did not start; logs in $SDK_ROOT$state"; }
sdk_log "BuildGrid on grpc://127.0.0.1:$port with $bots buildbox bots (logs: $SDK_ROOT$state); try: tools/bazel build --config=rbe //examples:mv2_u85"
