"""The neural engine served over HTTP, batching on and off: `glossa serve` with the generated
Argos package (tests/tools/make_models.py: a 2+2-layer, 64-wide random Transformer with a
SentencePiece model), one FLORES-200 sentence per Google v2 request, requests/s and p50/p99
latency at concurrency 1, 4 and 16, with GLOSSA_NEURAL_BATCHING=on (sentences of concurrent
requests share batches) and off (each request translated alone). The two configurations are
measured in alternating rounds (BENCH_ROUNDS, default 3) and the medians reported, so a change
in the machine's load hits both alike. Goal: on ≥ 3× off at concurrency 16.

Writes bench-output/neural-server.json. BENCH_SECONDS sets the seconds per measurement (default 5).
Clients are separate processes on the same machine, so they share its cores with the server."""
import json
import multiprocessing
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

from bench_server import GLOSSA, LEVELS, SECONDS, SENTENCES, load, start_glossa, stop

REPO = pathlib.Path(__file__).resolve().parent.parent
OUT = REPO / "bench-output"
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def google_request(text: str):
    body = json.dumps({"q": text, "source": "en", "target": "de", "format": "text"}).encode()
    return ("POST", "/language/translate/v2", body, {"Content-Type": "application/json"})


def main():
    models = OUT / "neural-server-models"
    manifest = json.loads(subprocess.run([sys.executable, str(REPO / "tests" / "tools" / "make_models.py"), str(models)],
                                         check=True, capture_output=True, text=True).stdout)
    data = tempfile.mkdtemp(prefix="glossa-bench-neural-")
    env = {**os.environ, "LC_ALL": "C.UTF-8", "XDG_DATA_HOME": data, "GLOSSA_PREFER": "neural", "GLOSSA_PREWARM": "none"}
    subprocess.run([GLOSSA, "models", "install", manifest["argosmodel"]], check=True, env=env, capture_output=True)
    requests = [google_request(s) for s in SENTENCES[:400]]
    runs = {"on": {c: [] for c in LEVELS}, "off": {c: [] for c in LEVELS}}
    with multiprocessing.Pool(max(LEVELS)) as pool:
        for round_index in range(ROUNDS):
            for batching in ("on", "off"):
                proc, port = start_glossa({**env, "GLOSSA_NEURAL_BATCHING": batching})
                try:
                    load(pool, port, requests[:16], 4, 1)   # warm-up: the model loads on first use
                    for c in LEVELS:
                        result = load(pool, port, requests, c, SECONDS)
                        runs[batching][c].append(result)
                        print(f"round {round_index + 1} batching {batching:3} c{c:<3} {result['rps']:8.1f} req/s "
                              f"p50 {result['p50_ms']:7.1f} ms p99 {result['p99_ms']:7.1f} ms errors {result['errors']}", flush=True)
                finally:
                    stop(proc)
    median = {b: {c: {k: statistics.median(r[k] for r in runs[b][c]) for k in ("rps", "p50_ms", "p99_ms")}
                  for c in LEVELS} for b in runs}
    print(f"\nmedians of {ROUNDS} rounds, {SECONDS:g} s each ({os.cpu_count()} CPUs; load: {os.getloadavg()[0]:.1f})")
    print("| concurrency | batching on req/s | p99 ms | batching off req/s | p99 ms | on/off |")
    print("| --- | --- | --- | --- | --- | --- |")
    for c in LEVELS:
        on, off = median["on"][c], median["off"][c]
        print(f"| {c} | {on['rps']:.1f} | {on['p99_ms']:.1f} | {off['rps']:.1f} | {off['p99_ms']:.1f} | **{on['rps'] / off['rps']:.2f}** |")
    OUT.mkdir(exist_ok=True)
    (OUT / "neural-server.json").write_text(json.dumps({"rounds": runs, "medians": median, "seconds": SECONDS}, indent=2))


if __name__ == "__main__":
    main()
