"""What key checking and usage accounting cost, and what nginx in front of three replicas costs, in
single-sentence requests/s at concurrency 16 (Google v2 GET, eng-spa, FLORES sentences), all on
127.0.0.1 in one run:

- one `glossa serve` checking no key (the baseline; the same request, its `key` ignored);
- one `glossa serve --require-keys` on SQLite (a temporary file), every request charged;
- one `glossa serve --require-keys` on PostgreSQL (the cluster's, below), every request charged;
- three replicas behind nginx on that PostgreSQL (scripts/cluster.sh run, the shipped config),
  against the single PostgreSQL replica without nginx;
- the same three replicas and nginx checking no key (a second cluster), against the single
  replica checking none: what replicas and nginx cost by themselves, and, against the keyed
  cluster, what the keys' statements cost when each replica combines only its own charges.

Each configuration is measured BENCH_ROUNDS times (default 3) in turns, each round starting one
configuration later than the one before (so no configuration is always measured first). Two figures per ratio:
the best rounds' (a burst of load from elsewhere does not decide it) and the median over rounds
of the ratio within each round (its two measurements are seconds apart, so the machine's drift
between rounds cancels); on a machine whose speed drifts, run more rounds (BENCH_ROUNDS=8). The load comes
from `wrk` (Debian's package: one thread, 16 keep-alive connections, the 200 requests in turn)
when it is installed, else from 16 Python processes; on two cores the Python clients take about
as much CPU as the server, which blurs a few-percent difference into noise, so install wrk
(`apt-get install wrk`) for the ratios that count. The output says which load was used. Targets: key
checking costs at most 5 % (SQLite) / 10 % (PostgreSQL); three replicas behind nginx reach at
least 0.9x one replica. On a machine with as many cores as processes the replicas would add
throughput; here every process shares the same cores with the load generator."""
import json
import multiprocessing
import os
import pathlib
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_server import ENV, GLOSSA, REPO, SECONDS, SENTENCES, free_port, stop, timed_load, wait_ready  # noqa: E402
from wrk_load import WRK  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CONCURRENCY = 16


def serve(*extra: str):
    port = free_port()
    proc = subprocess.Popen([GLOSSA, "serve", "--host", "127.0.0.1", "--port", str(port), *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**ENV, "GLOSSA_PREWARM": "eng-spa"})
    wait_ready(port, "/health")
    return proc, port


def requests_for(key: str):
    return [("GET", "/language/translate/v2?" + urllib.parse.urlencode(
        {"q": s, "source": "en", "target": "es", "format": "text", "key": key}), None, {}) for s in SENTENCES[:200]]


def measure(pool, port: int, requests, seconds: float) -> dict:
    return timed_load(pool, port, requests, CONCURRENCY, seconds)


def commits(database: str) -> int:
    """PostgreSQL's count of committed transactions in `database` (pg_stat_database)."""
    out = subprocess.run(["psql", database, "-Atc",
                          "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return int(out.strip())


def create_key(database: str) -> str:
    made = subprocess.run([GLOSSA, "keys", "create", "--name", "bench", "--chars-per-month", str(10**12), "--json",
                           "--database", database], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(made.stdout)["key"]


def free_port_run(count: int) -> int:
    """A port that is free together with the `count - 1` after it (nginx's port and the
    replicas', PORT+1 …): a free port alone once had its neighbour taken, and a replica failed."""
    while True:
        base = free_port()
        sockets = []
        try:
            for port in range(base, base + count):
                s = socket.socket()
                sockets.append(s)
                s.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()


def start_cluster(directory: str, serve_args: str = "--require-keys", database: str | None = None):
    """scripts/cluster.sh run: three replicas behind nginx, on `database` (a PostgreSQL URL) or,
    when none is given, on a PostgreSQL the script starts."""
    base = free_port_run(4)
    env = {**ENV, "GLOSSA_BIN": GLOSSA, "REPLICAS": "3", "PORT": str(base), "CLUSTER_DIR": directory,
           "GLOSSA_PREWARM": "eng-spa", "GLOSSA_SERVE_ARGS": serve_args}
    if database:
        env["DATABASE"] = database
    proc = subprocess.Popen([str(REPO / "scripts" / "cluster.sh"), "run"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    for line in proc.stdout:
        if "listening on" in line:
            break
    else:
        os.killpg(proc.pid, signal.SIGTERM)  # what it did start (its own session)
        proc.wait(timeout=120)
        sys.exit("the cluster did not start")
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    return proc, base, pathlib.Path(directory, "database").read_text().strip()


def main():
    if not os.access(GLOSSA, os.X_OK):
        sys.exit(f"no glossa binary at {GLOSSA}: make build-release")
    cluster_dir = tempfile.mkdtemp(prefix="glossa-bench-cluster-")
    os.chmod(cluster_dir, 0o755)
    sqlite = tempfile.mkdtemp(prefix="glossa-bench-keys-") + "/glossa.db"
    groups = []  # the clusters started, each in a process group of its own
    servers = {}
    best: dict[str, dict] = {}
    rounds: list[dict[str, float]] = []
    try:
        cluster, cluster_port, postgres = start_cluster(cluster_dir)
        groups.append(cluster)
        # The same cluster checking no key: what the replicas and nginx cost by themselves, apart
        # from the keys' statements. It shares the first cluster's PostgreSQL (it sends it nothing
        # per request), so no second server runs.
        open_dir = tempfile.mkdtemp(prefix="glossa-bench-cluster-open-")
        os.chmod(open_dir, 0o755)
        open_cluster, open_port, _ = start_cluster(open_dir, serve_args="", database=postgres)
        groups.insert(0, open_cluster)  # stopped first: it uses the first one's PostgreSQL
        pg_key, sqlite_key = create_key(postgres), create_key(sqlite)
        servers["no keys"] = serve()
        servers["keys, SQLite"] = serve("--require-keys", "--database", sqlite)
        servers["keys, PostgreSQL"] = serve("--require-keys", "--database", postgres)
        targets = {name: (port, requests_for(sqlite_key if "SQLite" in name else pg_key)) for name, (_, port) in servers.items()}
        targets["3 replicas behind nginx, PostgreSQL"] = (cluster_port, requests_for(pg_key))
        targets["3 replicas behind nginx, no keys"] = (open_port, requests_for(pg_key))
        with multiprocessing.Pool(CONCURRENCY) as pool:
            for name, (port, reqs) in targets.items():  # warm-up: pipelines, connections, caches
                measure(pool, port, reqs, 1)
            order = list(targets.items())
            for round_number in range(ROUNDS):
                rounds.append({})
                # Each round starts one configuration later: a fixed order measured the first
                # one after the last round's cluster every time, and the one replica came out
                # 5 % faster with keys than without, which keys cannot do.
                shift = round_number % len(order)
                for name, (port, reqs) in order[shift:] + order[:shift]:
                    counted = "PostgreSQL" in name
                    before = commits(postgres) if counted else 0
                    r = measure(pool, port, reqs, SECONDS)
                    if counted:
                        # Its statistics reach pg_stat_database within the stats interval.
                        time.sleep(1)
                        r["commits_per_request"] = (commits(postgres) - before) / max(1, r["requests"])
                    rounds[-1][name] = r["rps"]
                    if r["errors"]:
                        print(f"{name}: {r['errors']} errors", file=sys.stderr)
                    if name not in best or r["rps"] > best[name]["rps"]:
                        best[name] = r
    finally:
        for proc, _ in servers.values():
            stop(proc)
        for group in groups:
            os.killpg(group.pid, signal.SIGTERM)
            group.wait(timeout=120)
    client = "wrk, 1 thread" if WRK else f"{CONCURRENCY} Python processes"
    print(f"single sentences at concurrency {CONCURRENCY} ({client}), best of {ROUNDS} rounds of {SECONDS:g} s, {os.cpu_count()} cores:")
    for name, r in best.items():
        per = f", {r['commits_per_request']:.2f} PostgreSQL commits/request" if "commits_per_request" in r else ""
        print(f"  {name:38s} {r['rps']:8.1f} req/s  p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  ({r['requests']} requests{per})")
    pairs = {
        "SQLite keys / no keys": ("keys, SQLite", "no keys"),
        "PostgreSQL keys / no keys": ("keys, PostgreSQL", "no keys"),
        "3 replicas + nginx / 1 replica (PostgreSQL keys)": ("3 replicas behind nginx, PostgreSQL", "keys, PostgreSQL"),
        "3 replicas + nginx / 1 replica (no keys)": ("3 replicas behind nginx, no keys", "no keys"),
        "3 replicas + nginx: PostgreSQL keys / no keys": ("3 replicas behind nginx, PostgreSQL", "3 replicas behind nginx, no keys"),
    }
    ratios = {name: best[a]["rps"] / best[b]["rps"] for name, (a, b) in pairs.items()}
    # The same ratio within each round (its two measurements seconds apart), median over rounds:
    # the machine's speed drifts between rounds, and this cancels the drift that best-of keeps.
    round_ratios = {name: statistics.median(r[a] / r[b] for r in rounds) for name, (a, b) in pairs.items()}
    print(f"  {'ratio':48s} {'best of rounds':>15s} {'median per round':>17s}")
    for name, value in ratios.items():
        print(f"  {name:48s} {value:15.3f} {round_ratios[name]:17.3f}")
    out = REPO / "bench-output"
    out.mkdir(exist_ok=True)
    (out / "keys.json").write_text(json.dumps({"best": best, "ratios": ratios, "median_round_ratios": round_ratios,
                                               "rounds_rps": rounds, "cores": os.cpu_count(),
                                               "seconds": SECONDS, "rounds": ROUNDS, "client": client}, indent=2))


if __name__ == "__main__":
    main()
