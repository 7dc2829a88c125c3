#!/usr/bin/env bash
# N `glossa serve` replicas behind nginx on 127.0.0.1, sharing one PostgreSQL (docs/cluster.md).
#
#   scripts/cluster.sh run              start everything, print the URL, stop everything on Ctrl-C/SIGTERM
#   scripts/cluster.sh rolling-restart  restart the replicas of a running cluster one by one
#   scripts/cluster.sh status           each replica's PID, port and /health status
#
# Settings (environment):
#   GLOSSA_BIN         the glossa binary (default .build/release/glossa)
#   REPLICAS           how many replicas (default 3)
#   PORT               nginx's port (default 8080); replicas listen on PORT+1 … PORT+REPLICAS
#   REPLICA_PORT       the first replica's port (default PORT+1)
#   DATABASE           a postgres:// URL; default: a PostgreSQL started here, in CLUSTER_DIR/pg,
#                      on 127.0.0.1:PG_PORT (default PORT+100), trust authentication (local use)
#   CLUSTER_DIR        state: PIDs, ports, logs, the generated nginx.conf (default .cluster)
#   GLOSSA_SERVE_ARGS  extra `glossa serve` options for every replica (default --require-keys)
#   GLOSSA_PIPELINES   Apertium pipelines per pair in each replica (default: the machine's cores
#                      shared out among the replicas, at least 1: on 2 cores 3 replicas get 1
#                      each, where glossa serve alone keeps 2; more pipelines than cores only
#                      switch between each other, and 3 replicas with 1 served 8-10 % more
#                      requests/s than with 2 in an alternating A/B on 2 cores)
# Every replica gets --database DATABASE and --trusted-proxy 127.0.0.1 (nginx is the client it sees).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
command=${1:-run}
bin=${GLOSSA_BIN:-$here/.build/release/glossa}
replicas=${REPLICAS:-3}
port=${PORT:-8080}
first=${REPLICA_PORT:-$((port + 1))}
pg_port=${PG_PORT:-$((port + 100))}
dir=${CLUSTER_DIR:-$here/.cluster}
serve_args=${GLOSSA_SERVE_ARGS---require-keys}
cores=$(nproc 2>/dev/null || echo 2)
shared=$((cores / (replicas > 0 ? replicas : 1)))
export GLOSSA_PIPELINES=${GLOSSA_PIPELINES:-$((shared < 1 ? 1 : (shared > 64 ? 64 : shared)))}

# Seconds nginx skips a replica after a failed request to it (`fail_timeout`).
fail_timeout=2

say() { echo "cluster: $*" >&2; }

# PostgreSQL refuses to run as root: as root, its tools run as Debian's postgres user.
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

pg_bin() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -x "$found/initdb" ] || { say "PostgreSQL is not installed (Debian package postgresql: scripts/install-deps.sh test)"; exit 1; }
  echo "$found"
}

start_postgres() {
  local bin_dir; bin_dir=$(pg_bin)
  mkdir -p "$dir/pg"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir/pg"
  if [ ! -d "$dir/pg/data" ]; then
    as_pg "$bin_dir/initdb" -D "$dir/pg/data" -A trust -U glossa -E UTF8 >"$dir/pg/initdb.log" 2>&1
  fi
  as_pg "$bin_dir/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w -t 60 \
    -o "-h 127.0.0.1 -p $pg_port -k $dir/pg -c max_connections=200" start >/dev/null
  as_pg "$bin_dir/psql" -h 127.0.0.1 -p "$pg_port" -U glossa -d postgres -Atq \
    -c "SELECT 1 FROM pg_database WHERE datname = 'glossa'" | grep -q 1 \
    || as_pg "$bin_dir/createdb" -h 127.0.0.1 -p "$pg_port" -U glossa glossa
  echo "postgres://glossa@127.0.0.1:$pg_port/glossa"
}

stop_postgres() {
  [ -f "$dir/pg/data/postmaster.pid" ] || return 0
  as_pg "$(pg_bin)/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null 2>&1 || true
}

# Starts replica N (1-based) in its own session, so it outlives a `rolling-restart` shell.
start_replica() {
  local n=$1 p=$((first + $1 - 1)) database
  database=$(cat "$dir/database")
  # shellcheck disable=SC2086  # GLOSSA_SERVE_ARGS is a list of options
  setsid "$bin" serve --host 127.0.0.1 --port "$p" --database "$database" --trusted-proxy 127.0.0.1 $serve_args \
    >>"$dir/replica-$n.log" 2>&1 </dev/null &
  echo $! >"$dir/replica-$n.pid"
  echo "$p" >"$dir/replica-$n.port"
}

healthy() { curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$1/health" 2>/dev/null; }

wait_healthy() {
  local n=$1 p=$((first + $1 - 1))
  for _ in $(seq 1 600); do
    healthy "$p" && return 0
    kill -0 "$(cat "$dir/replica-$n.pid")" 2>/dev/null || { say "replica $n exited; see $dir/replica-$n.log"; return 1; }
    sleep 0.2
  done
  say "replica $n did not become healthy in 120 s"; return 1
}

# SIGTERM (a graceful drain: no new connections, requests in flight finish), then wait for it.
stop_replica() {
  local pid; pid=$(cat "$dir/replica-$1.pid" 2>/dev/null) || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

write_nginx_conf() {
  local upstreams="" n
  for n in $(seq 1 "$replicas"); do
    upstreams+="        server 127.0.0.1:$((first + n - 1)) max_fails=1 fail_timeout=${fail_timeout}s;"$'\n'
  done
  mkdir -p "$dir"/nginx-{body,proxy,fastcgi,uwsgi,scgi}
  # nginx's workers run as an unprivileged user when nginx starts as root: they write bodies here.
  chmod 0777 "$dir"/nginx-{body,proxy,fastcgi,uwsgi,scgi}
  # nginx lets through what the replicas take (GLOSSA_MAX_DOCUMENT_MB decides, the replicas say
  # how much that is), plus 1 MiB, so a body a replica refuses gets the protocol's own 413.
  local body; body=$(( $("$bin" serve --print-body-limit) + 1048576 ))
  awk -v ups="$upstreams" -v d="$dir" -v l="127.0.0.1:$port" -v b="$body" \
    '{ if ($0 == "@UPSTREAMS@") { printf "%s", ups } else { gsub("@DIR@", d); gsub("@LISTEN@", l); gsub("@BODY@", b); print } }' \
    "$here/deploy/nginx/glossa.conf.template" >"$dir/nginx.conf"
}

run() {
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { say "nginx is not installed (Debian package nginx)"; exit 1; }
  [ -x "$bin" ] || { say "no glossa binary at $bin (make build-release, or set GLOSSA_BIN)"; exit 1; }
  mkdir -p "$dir"
  chmod 0755 "$dir"
  local started_pg=0
  if [ -n "${DATABASE:-}" ]; then echo "$DATABASE" >"$dir/database"; else start_postgres >"$dir/database"; started_pg=1; fi
  local nginx_pid=""
  cleanup() {
    trap - INT TERM EXIT
    say "stopping"
    [ -n "$nginx_pid" ] && kill -QUIT "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null || true
    for n in $(seq 1 "$replicas"); do stop_replica "$n" & done
    wait 2>/dev/null || true
    [ "$started_pg" -eq 1 ] && stop_postgres
    say "stopped"
  }
  trap cleanup EXIT
  trap 'exit 0' INT TERM
  # The first replica migrates the schema; the others find it done (they would also wait on the
  # migration lock if started together).
  for n in $(seq 1 "$replicas"); do start_replica "$n"; done
  for n in $(seq 1 "$replicas"); do wait_healthy "$n"; done
  write_nginx_conf
  "$(command -v nginx || echo /usr/sbin/nginx)" -e "$dir/nginx-error.log" -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' &
  nginx_pid=$!
  echo "$nginx_pid" >"$dir/nginx.pid.run"
  # Quietly: nginx refusing the first tries while it starts is expected, not an error to print.
  local up=0
  for _ in $(seq 1 100); do if healthy "$port"; then up=1; break; fi; sleep 0.1; done
  [ "$up" = 1 ] || { say "nginx did not answer on 127.0.0.1:$port within 10 s ($dir/nginx-error.log says why)"; exit 1; }
  echo "cluster: $replicas replicas on ports $first-$((first + replicas - 1)), database $(sed 's#//\([^:@/]*\):[^@]*@#//\1:***@#' "$dir/database")"
  echo "cluster: listening on http://127.0.0.1:$port"
  while kill -0 "$nginx_pid" 2>/dev/null; do sleep 1; done
}

rolling_restart() {
  for n in $(seq 1 "$replicas"); do
    say "restarting replica $n"
    stop_replica "$n"
    start_replica "$n"
    wait_healthy "$n"
    # nginx marked the replica failed while it was down and sends it nothing until fail_timeout
    # has passed (its health checks are passive): stopping the next replica before then leaves
    # fewer replicas than it seems, and one error on those answers 502 "no live upstreams".
    if [ "$n" -lt "$replicas" ]; then sleep $((fail_timeout + 1)); fi
  done
  say "rolling restart done"
}

status() {
  for n in $(seq 1 "$replicas"); do
    local p; p=$(cat "$dir/replica-$n.port" 2>/dev/null || echo "?")
    echo "replica $n: pid $(cat "$dir/replica-$n.pid" 2>/dev/null || echo "?"), port $p, $(healthy "$p" 2>/dev/null && echo healthy || echo down)"
  done
}

case "$command" in
  run) run ;;
  rolling-restart) rolling_restart ;;
  status) status ;;
  *) echo "usage: scripts/cluster.sh run|rolling-restart|status" >&2; exit 2 ;;
esac
