"""What keys cost three replicas behind nginx, and where: the keyed and the keyless cluster
(scripts/cluster.sh run, one PostgreSQL) side by side, measured in alternating rounds (the order
swapped every round), single sentences at concurrency 16 from wrk, with PostgreSQL's commits per
request and each process's CPU per request (/proc/<pid>/stat, grouped by name: glossa,
postgres, nginx, the stages).

Usage: python bench/cluster_keys_cpu.py [ROUNDS] (default 6), after `make build-release`."""
import multiprocessing
import os
import pathlib
import signal
import statistics
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_keys as K  # noqa: E402
from paragraph_cpu import cpu_by_process, cpu_per  # noqa: E402


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    multiprocessing.set_start_method("fork")
    groups = []
    try:
        keyed_dir = tempfile.mkdtemp(prefix="glossa-bench-cluster-")
        os.chmod(keyed_dir, 0o755)
        keyed, keyed_port, database = K.start_cluster(keyed_dir)
        groups.append(keyed)
        open_dir = tempfile.mkdtemp(prefix="glossa-bench-cluster-open-")
        os.chmod(open_dir, 0o755)
        keyless, keyless_port, _ = K.start_cluster(open_dir, serve_args="", database=database)
        groups.insert(0, keyless)  # stopped first: it uses the first one's PostgreSQL
        requests = K.requests_for(K.create_key(database))
        rps = {"keys": [], "no keys": []}
        with multiprocessing.Pool(K.CONCURRENCY) as pool:
            for port in (keyed_port, keyless_port):
                K.measure(pool, port, requests, 1)
            for n in range(rounds):
                order = [("keys", keyed_port), ("no keys", keyless_port)]
                for name, port in order if n % 2 == 0 else order[::-1]:
                    commits, before = K.commits(database), cpu_by_process()
                    result = K.measure(pool, port, requests, K.SECONDS)
                    after = cpu_by_process()
                    rps[name].append(result["rps"])
                    costs = cpu_per(before, after, result["requests"], at_least=10)
                    top = ", ".join(f"{k} {v:.0f}" for k, v in sorted(costs.items(), key=lambda kv: -kv[1]))
                    print(f"{name:8s} {result['rps']:7.1f} req/s, {(K.commits(database) - commits) / max(1, result['requests']):.3f} "
                          f"commits/request; µs CPU/request: {top}", flush=True)
        print(f"keys / no keys, median of {rounds} rounds: {statistics.median(a / b for a, b in zip(rps['keys'], rps['no keys'])):.3f}")
    finally:
        for group in groups:
            os.killpg(group.pid, signal.SIGTERM)
            group.wait(timeout=120)


if __name__ == "__main__":
    main()
