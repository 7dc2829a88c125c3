"""The neural engine served over HTTP, batching on and off: `glossa serve` with a generated Argos
package, one FLORES-200 sentence per Google v2 request, requests/s and p50/p99 latency at
concurrency 1, 4 and 16, with GLOSSA_NEURAL_BATCHING=on (sentences of concurrent requests share
batches) and off (each request translated alone). The two configurations are measured in
alternating rounds (BENCH_ROUNDS, default 3) and the medians reported, so a change in the
machine's load hits both alike. Goal: on ≥ 3× off at concurrency 16.

BENCH_NEURAL_MODEL chooses the package (tests/tools/make_models.py): `base` (default), the size of
a real Argos Translate package (6+6 layers, 512 wide, FFN 2048, int8, an 8,000-piece
SentencePiece vocabulary; random weights, outputs about as long as their sources), or `tiny` (the
tests' 2+2-layer, 64-wide model, where per-sentence work dwarfs the matrix products that batching
shares). BENCH_NEURAL_BEAMS (default `4,1`) lists the served beam sizes (GLOSSA_NEURAL_BEAM):
4 is Argos Translate's, 1 greedy search.

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


def make_package(models):
    kind = os.environ.get("BENCH_NEURAL_MODEL", "base")
    flag = {"base": ["--argos-base"], "tiny": []}.get(kind)
    if flag is None:
        sys.exit(f"BENCH_NEURAL_MODEL={kind}: give base or tiny")
    made = subprocess.run([sys.executable, str(REPO / "tests" / "tools" / "make_models.py"), str(models), *flag],
                          check=True, capture_output=True, text=True).stdout
    return kind, json.loads(made)["argosmodel"]


def main():
    kind, package = make_package(OUT / "neural-server-models")
    beams = [int(b) for b in os.environ.get("BENCH_NEURAL_BEAMS", "4,1").split(",")]
    data = tempfile.mkdtemp(prefix="glossa-bench-neural-")
    env = {**os.environ, "LC_ALL": "C.UTF-8", "XDG_DATA_HOME": data, "GLOSSA_PREFER": "neural", "GLOSSA_PREWARM": "none"}
    subprocess.run([GLOSSA, "models", "install", package], check=True, env=env, capture_output=True)
    requests = [google_request(s) for s in SENTENCES[:400]]
    runs = {f"beam{k} {b}": {c: [] for c in LEVELS} for k in beams for b in ("on", "off")}
    with multiprocessing.Pool(max(LEVELS)) as pool:
        for round_index in range(ROUNDS):
            for beam in beams:
                for batching in ("on", "off"):
                    name = f"beam{beam} {batching}"
                    proc, port = start_glossa({**env, "GLOSSA_NEURAL_BATCHING": batching, "GLOSSA_NEURAL_BEAM": str(beam)})
                    try:
                        load(pool, port, requests[:16], 4, 1)   # warm-up: the model loads on first use
                        for c in LEVELS:
                            result = load(pool, port, requests, c, SECONDS)
                            runs[name][c].append(result)
                            print(f"round {round_index + 1} {kind} beam {beam} batching {batching:3} c{c:<3} {result['rps']:8.1f} req/s "
                                  f"p50 {result['p50_ms']:7.1f} ms p99 {result['p99_ms']:7.1f} ms errors {result['errors']}", flush=True)
                    finally:
                        stop(proc)
    median = {b: {c: {k: statistics.median(r[k] for r in runs[b][c]) for k in ("rps", "p50_ms", "p99_ms")}
                  for c in LEVELS} for b in runs}
    print(f"\n{kind} package, medians of {ROUNDS} rounds, {SECONDS:g} s each ({os.cpu_count()} CPUs; load: {os.getloadavg()[0]:.1f})")
    print("| beam | concurrency | batching on req/s | p99 ms | batching off req/s | p99 ms | on/off |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for beam in beams:
        for c in LEVELS:
            on, off = median[f"beam{beam} on"][c], median[f"beam{beam} off"][c]
            print(f"| {beam} | {c} | {on['rps']:.1f} | {on['p99_ms']:.1f} | {off['rps']:.1f} | {off['p99_ms']:.1f} | **{on['rps'] / off['rps']:.2f}** |")
    OUT.mkdir(exist_ok=True)
    (OUT / "neural-server.json").write_text(json.dumps({"model": kind, "rounds": runs, "medians": median, "seconds": SECONDS}, indent=2))


if __name__ == "__main__":
    main()
