#!/usr/bin/env bash
# Measures two fanorona-servers sharing one PostgreSQL database on this machine: starts a throw-away PostgreSQL
# cluster (as the postgres user when run as root) and two release servers on it, plays GAMES games with each game's
# players on different servers, optionally kills one server (SIGKILL) KILL_AFTER seconds into the play, and prints
# the load generator's report. Everything is stopped and removed at the end, also on failure.
#
#   scripts/cluster-loadtest.sh [GAMES] [KILL_AFTER]     e.g. scripts/cluster-loadtest.sh 1000 15
#
# For comparison on the same machine: SERVERS=1 runs one server on the PostgreSQL database, and SERVERS=1 DB=sqlite
# one server on an SQLite file (no PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${1:-1000}"
KILL_AFTER="${2:-}"
SERVERS="${SERVERS:-2}"
DB="${DB:-postgres}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/fanorona-target}"

cargo build --release -q -p fanorona-server
SERVER="$CARGO_TARGET_DIR/release/fanorona-server"
BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
[ -x "$BIN/initdb" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }

WORK="$(mktemp -d /tmp/fanorona-cluster.XXXXXX)"
AS=()
if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$WORK"; AS=(runuser -u postgres --); fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PGPORT="$(free_port)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  "${AS[@]}" "$BIN/pg_ctl" -D "$WORK/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

if [ "$DB" = sqlite ]; then
  URL="$WORK/games.sqlite3"
else
  "${AS[@]}" "$BIN/initdb" -U fanorona --auth=trust -E UTF8 -D "$WORK/data" >/dev/null
  "${AS[@]}" "$BIN/pg_ctl" -D "$WORK/data" -l "$WORK/data/log" -w \
    -o "-p $PGPORT -k $WORK/data -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
  "${AS[@]}" "$BIN/psql" -h 127.0.0.1 -p "$PGPORT" -U fanorona -d postgres -qc "CREATE DATABASE games" >/dev/null
  URL="postgres://fanorona@127.0.0.1:$PGPORT/games"
fi

ADDRS=()
for i in $(seq "$SERVERS"); do
  PORT="$(free_port)"
  # Limits of a server behind which the load generator's thousands of connections come from one address.
  "$SERVER" --bind 127.0.0.1 --port "$PORT" --db "$URL" --web-dir /nonexistent --max-conns-per-ip 5000 \
    --max-tcp-per-ip 5000 --max-creates 5000 --msgs-per-sec 100 >"$WORK/server$i.log" 2>&1 &
  PIDS+=($!)
  disown
  ADDRS+=(--addr "127.0.0.1:$PORT" --server-pid $!)
done
for i in $(seq "$SERVERS"); do
  for _ in $(seq 100); do grep -q listening "$WORK/server$i.log" && break; sleep 0.1; done
done

KILL=()
[ -n "$KILL_AFTER" ] && KILL=(--kill-after-s "$KILL_AFTER" --kill-pid "${PIDS[0]}")
"$SERVER" loadtest --games "$GAMES" "${ADDRS[@]}" "${KILL[@]}"
