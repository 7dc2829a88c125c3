"""Memory of warm Apertium pipelines: starts `glossa serve` with the given pairs warm and prints,
for each pipeline, its stages and the PSS and RSS of its processes (the README's per-pair figure).

    .venv/bin/python bench/pipeline_memory.py .build/release/glossa eng-spa spa-eng eng-cat ...

Pairs that are not installed make `glossa serve` refuse to start (GLOSSA_PREWARM names them)."""
import os
import socket
import subprocess
import sys
import time


def children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(x) for x in out]


def field_kb(path: str, name: str) -> int:
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(name + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> None:
    binary, pairs = sys.argv[1], sys.argv[2:] or ["eng-spa", "spa-eng", "eng-cat", "fr-es", "es-gl"]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GLOSSA_PREWARM": ",".join(pairs), "GLOSSA_MAX_WARM": "all"}
    server = subprocess.Popen([binary, "serve", "--port", str(port)], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        while True:
            line = server.stdout.readline()
            if not line or "listening" in line:
                break
        time.sleep(3)
        total = 0
        for bash in children(server.pid):
            stages = children(bash)
            with open(f"/proc/{stages[0]}/cmdline") as f:
                first = f.read().replace("\0", " ")
            pss = sum(field_kb(f"/proc/{p}/smaps_rollup", "Pss") for p in stages + [bash]) / 1024
            rss = sum(field_kb(f"/proc/{p}/status", "VmRSS") for p in stages + [bash]) / 1024
            total += pss
            print(f"{len(stages):3d} stages  PSS {pss:6.0f} MB  RSS {rss:6.0f} MB  {first[:80]}")
        print(f"total PSS {total:.0f} MB")
    finally:
        server.terminate()
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
