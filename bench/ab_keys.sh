#!/usr/bin/env bash
# What PostgreSQL key checking costs, for two (or more) glossa binaries side by side: for each
# binary in turn, ROUNDS times, one `glossa serve` without keys and one with --require-keys on a
# PostgreSQL started here (127.0.0.1, a temporary directory), each loaded by wrk (one thread, 16
# keep-alive connections, single FLORES sentences as Google v2 GETs carrying one key); prints
# requests/s and the keys/no-keys ratio per round. Alternating binaries round by round lets a
# change be compared with its parent on a machine whose speed drifts.
# Usage: bench/ab_keys.sh OLD/glossa NEW/glossa   (ROUNDS=3, SECONDS_PER_RUN=6)
# Needs wrk and postgresql (scripts/install-deps.sh bench) and ../shared/data/flores200-dev.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 GLOSSA_BINARY..." >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
flores="$repo/../shared/data/flores200-dev/eng_Latn.dev"
[ -f "$flores" ] || { echo "ab_keys: $flores is missing (FLORES-200 dev beside the repository)" >&2; exit 1; }
command -v wrk >/dev/null || { echo "ab_keys: wrk is not installed (scripts/install-deps.sh bench)" >&2; exit 1; }
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
pg=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pg/initdb" ] || { echo "ab_keys: PostgreSQL is not installed" >&2; exit 1; }

work=$(mktemp -d /tmp/glossa-ab-keys-XXXXXX)
chmod 755 "$work"
[ "$(id -u)" -eq 0 ] && chown postgres: "$work"
pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
server_pids=()
cleanup() {
  for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  as_pg "$pg/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
as_pg "$pg/initdb" -D "$work/data" -A trust -U glossa -E UTF8 >/dev/null
as_pg "$pg/pg_ctl" -D "$work/data" -l "$work/log" -w -o "-p $pg_port -k $work -h 127.0.0.1" start >/dev/null
as_pg "$pg/createdb" -h 127.0.0.1 -p "$pg_port" -U glossa glossa
database="postgres://glossa@127.0.0.1:$pg_port/glossa"
key=$("$1" keys create --name ab --chars-per-month 1000000000000 --json --database "$database" \
      | python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')
python3 - "$key" "$flores" > "$work/requests.lua" <<'PY'
import sys, urllib.parse
key, flores = sys.argv[1], sys.argv[2]
lines = [line.strip() for line in open(flores, encoding="utf-8") if line.strip()][:200]
paths = ["/language/translate/v2?" + urllib.parse.urlencode(
    {"q": s, "source": "en", "target": "es", "format": "text", "key": key}) for s in lines]
print("paths = {" + ",".join('"' + p + '"' for p in paths) + "}")
print("i = 0\nrequest = function() i = i % #paths + 1; return wrk.format('GET', paths[i]) end")
PY

# Requests/s of a fresh `glossa serve` (BINARY, then serve's options) after a 3 s warm-up.
measure() {
  local binary=$1; shift
  local port; port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  GLOSSA_PREWARM=eng-spa "$binary" serve --host 127.0.0.1 --port "$port" "$@" >/dev/null 2>&1 &
  local pid=$!
  server_pids+=("$pid")
  until curl -s -o /dev/null "http://127.0.0.1:$port/health"; do sleep 0.2; done
  wrk -t1 -c16 -d3s -s "$work/requests.lua" "http://127.0.0.1:$port" >/dev/null
  wrk -t1 -c16 -d"${SECONDS_PER_RUN:-6}"s -s "$work/requests.lua" "http://127.0.0.1:$port" | awk '/Requests\/sec/ {print $2}'
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

echo "binary | no keys req/s | PostgreSQL keys req/s | ratio   (wrk -t1 -c16, $(nproc) cores)"
for round in $(seq "${ROUNDS:-3}"); do
  for binary in "$@"; do
    plain=$(measure "$binary")
    keyed=$(measure "$binary" --require-keys --database "$database")
    echo "$binary | $plain | $keyed | $(python3 -c "print(f'{$keyed / $plain:.3f}')")"
  done
done
