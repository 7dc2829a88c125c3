"""Glossa's HTTP server against Apertium APy (Debian apertium-apy, the nearest peer) on the same
pair (eng-spa), the same sentences and the same requests, both on 127.0.0.1, in one run:

- single sentences: requests/s and p50/p99 latency at concurrency 1, 4 and 16, the identical
  APy request `GET /translate?langpair=eng|spa&q=...` sent to both;
- paragraphs (8 sentences each) through `/translate`: characters/s;
- batches of 32 sentences: Glossa's Google v2 POST with 32 `q`, APy's `/translate` with the 32
  sentences as one newline-separated text (APy has no batch call): characters/s;
- the raw `apertium eng-spa` pipeline on the same paragraphs, for words/s against Glossa's;
- documents: the same 200-paragraph docx (FLORES sentences, made with python-docx) sent to both
  servers' APy `/translateDoc` at concurrency 4: documents/s;
- morphology: APy `/analyze?lang=eng` on a paragraph at concurrency 4, both serving the same
  analysis modes (Glossa's, written out with `glossa modes --export` for APy's `-s`): requests/s.

APy runs in its default configuration (-j1) and with two server processes (-j2); the best of the
two is "APy best". Load comes from `wrk` (Debian's package, one thread, keep-alive; `make bench`
installs it), each request set sent in turn for BENCH_SECONDS; without wrk, from one Python
process per connection (no shared GIL), and the paragraphs and batches are then sent once each.
On two cores Python clients took about a third of a core at 600 requests/s, which the faster
server pays for most, so only wrk's figures count. Documents always come from Python clients
(a few per second: their cost does not show).
APy's document translation runs `apertium -f docx` per document, at most `--max-doc-pipes` (3)
at once; at concurrency 4 that limit does not bind. The three servers run side by side and every
row is measured on each in turn, BENCH_ROUNDS times (default 3): the figures are medians, and each
ratio is the median of the ratios within a round, whose measurements are seconds apart (the
machine's speed drifts over minutes). BENCH_SECONDS sets the seconds per measurement (default 5);
BENCH_PARTS (translate, documents, analyze; comma-separated) picks the
parts to run, e.g. after `make build-release`:
`BENCH_PARTS=documents,analyze GLOSSA_BIN=.build/release/glossa .venv/bin/python bench/run.py server`."""
import http.client
import json
import multiprocessing
import os
import pathlib
import re
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
from wrk_load import WRK, wrk_load  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parent.parent
GLOSSA = os.environ.get("GLOSSA_BIN", str(REPO / ".build" / "release" / "glossa"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
# BENCH_PARTS=documents,analyze runs only those parts (default: translate,documents,analyze).
PARTS = set(os.environ.get("BENCH_PARTS", "translate,documents,analyze").split(","))
# Rounds of every row on every server in turn (medians reported).
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
LEVELS = [1, 4, 16]
ENV = {**os.environ, "LC_ALL": "C.UTF-8"}

DOCX = b""
from flores_documents import SENTENCES, docx_bytes  # noqa: E402  (the same docx as bench_instructions.py)
PARAGRAPHS = [" ".join(SENTENCES[i:i + 8]) for i in range(0, 8 * 40, 8)]
BATCHES = [SENTENCES[i:i + 32] for i in range(0, 32 * 12, 32)]


MODES = pathlib.Path(tempfile.mkdtemp(prefix="glossa-bench-modes-"))


def doc_request(document: bytes):
    boundary = "glossa-bench-7f3a"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"langpair\"\r\n\r\neng|spa\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"doc.docx\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode() + document + f"\r\n--{boundary}--\r\n".encode()
    return ("POST", "/translateDoc", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port: int, path: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit(f"server on port {port} not ready after {timeout} s")


def start_glossa(env=None):
    proc = subprocess.Popen([GLOSSA, "serve", "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env or ENV)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not match:
        proc.kill()
        sys.exit(f"glossa serve did not start (first line {line!r}); is `serve` wired to the HTTP server?")
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    port = int(match.group(1))
    wait_ready(port, "/health")
    return proc, port


def start_apy(processes: int):
    port = free_port()
    proc = subprocess.Popen(["/usr/bin/python3", str(REPO / "bench" / "apy_loopback.py"), "-p", str(port),
                             "-j", str(processes), "-s", str(MODES), "/usr/share/apertium/modes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV, start_new_session=True)
    wait_ready(port, "/listPairs")
    return proc, port


def stop(proc) -> None:
    """SIGTERM by PID (APy -j forks children into its own session: signal that group); then
    SIGKILL to whatever of that group outlived its leader (an APy -j2 child was once left
    running after its parent had exited)."""
    try:
        own_group = proc.pid == os.getpgid(proc.pid)
    except ProcessLookupError:
        own_group = False
    try:
        os.killpg(proc.pid, signal.SIGTERM) if own_group else proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    except (subprocess.TimeoutExpired, ProcessLookupError):
        proc.kill()
        proc.wait()
    if own_group:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the group's id is the leader's PID: only processes it started
        except ProcessLookupError:
            pass


def apy_request(text: str):
    return ("GET", "/translate?" + urllib.parse.urlencode({"langpair": "eng|spa", "q": text, "format": "txt"}), None, {})


def worker(args):
    """One keep-alive connection sending `requests` round-robin until the deadline (or once each)."""
    port, requests, start_index, deadline, once = args
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    latencies, errors, i = [], 0, start_index
    while (once and i < start_index + len(requests)) or (not once and time.time() < deadline):
        method, path, body, headers = requests[i % len(requests)]
        i += 1
        t0 = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            ok = response.status == 200
        except OSError:
            ok = False
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        latencies.append(time.perf_counter() - t0)
        errors += 0 if ok else 1
    conn.close()
    return latencies, errors


def load(pool, port: int, requests, concurrency: int, seconds: float):
    deadline = time.time() + seconds
    start = time.perf_counter()
    parts = pool.map(worker, [(port, requests, k * 7, deadline, False) for k in range(concurrency)])
    elapsed = time.perf_counter() - start
    latencies = sorted(l for part, _ in parts for l in part)
    errors = sum(e for _, e in parts)
    return {"requests": len(latencies), "errors": errors, "rps": len(latencies) / elapsed,
            "p50_ms": 1000 * latencies[len(latencies) // 2],
            "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]}


def volume(pool, port: int, requests, chars: int, concurrency: int):
    """Sends every request once, spread over `concurrency` connections; characters/s."""
    share = [requests[k::concurrency] for k in range(concurrency)]
    start = time.perf_counter()
    parts = pool.map(worker, [(port, s, 0, 0, True) for s in share if s])
    elapsed = time.perf_counter() - start
    return {"seconds": elapsed, "chars_per_s": chars / elapsed, "errors": sum(e for _, e in parts)}


def timed_load(pool, port: int, requests, concurrency: int, seconds: float = SECONDS) -> dict:
    """`requests` in turn on `concurrency` connections for `seconds`: from wrk when it is
    installed, else from one Python process per connection."""
    return wrk_load(port, requests, seconds, concurrency) if WRK else load(pool, port, requests, concurrency, seconds)


def timed_volume(pool, port: int, requests, chars: int, concurrency: int):
    """Characters/s of `requests` (holding `chars` characters in all) sent in turn for SECONDS:
    from wrk when it is installed (every request is then sent about equally often, so the
    characters per request average out), else one pass through Python clients."""
    if not WRK:
        return volume(pool, port, requests, chars, concurrency)
    run = wrk_load(port, requests, SECONDS, concurrency)
    return {"seconds": SECONDS, "chars_per_s": run["rps"] * chars / len(requests), "errors": run["errors"],
            "requests": run["requests"]}


def plan(glossa: bool):
    """The rows to measure, in order: (part, level, warm-up requests, measure(pool, port))."""
    rows = []
    if "translate" in PARTS:
        single = [apy_request(s) for s in SENTENCES[:200]]
        for c in LEVELS:
            rows.append(("single", c, single[:20], lambda pool, port, c=c: timed_load(pool, port, single, c)))
        paragraphs = [apy_request(p) for p in PARAGRAPHS]
        para_chars = sum(len(p) for p in PARAGRAPHS)
        for c in (1, 4):
            rows.append(("paragraphs", c, [], lambda pool, port, c=c: timed_volume(pool, port, paragraphs, para_chars, c)))
        if glossa:
            batches = [("POST", "/language/translate/v2?prettyPrint=false",
                        json.dumps({"q": b, "target": "es", "source": "en", "format": "text"}),
                        {"Content-Type": "application/json"}) for b in BATCHES]
        else:
            batches = [apy_request("\n".join(b)) for b in BATCHES]
        batch_chars = sum(len(s) for b in BATCHES for s in b)
        for c in (1, 4):
            rows.append(("batches", c, [], lambda pool, port, c=c: timed_volume(pool, port, batches, batch_chars, c)))
    if "documents" in PARTS:
        document = doc_request(DOCX)
        rows.append(("documents", 4, [document], lambda pool, port: load(pool, port, [document], 4, max(SECONDS, 10))))
    if "analyze" in PARTS:
        analyze = [("GET", "/analyze?" + urllib.parse.urlencode({"lang": "eng", "q": p}), None, {}) for p in PARAGRAPHS]
        rows.append(("analyze", 4, analyze[:4], lambda pool, port: timed_load(pool, port, analyze, 4)))
    return rows


def raw_pipeline_words_per_s() -> float:
    """The raw `apertium eng-spa` pipeline over the paragraphs (x10, so start-up is amortised)."""
    text = "\n".join(PARAGRAPHS * 10) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    best = float("inf")
    for _ in range(2):
        with open(f.name, "rb") as src:
            t0 = time.perf_counter()
            subprocess.run(["apertium", "-f", "txt", "eng-spa"], stdin=src, stdout=subprocess.DEVNULL, check=True, env=ENV)
            best = min(best, time.perf_counter() - t0)
    os.unlink(f.name)
    return len(text.split()) / best


def main():
    global DOCX
    DOCX = docx_bytes()
    subprocess.run([GLOSSA, "modes", "--export", str(MODES)], check=True, env=ENV)
    multiprocessing.set_start_method("fork")
    # All three servers run at once, and every row is measured on each in turn, round after
    # round: the machine's speed drifts over minutes (another tenant, its clock), and rows
    # measured seconds apart see the same machine. An idle server costs nothing meanwhile.
    servers = {}
    try:
        servers["glossa"] = start_glossa()
        for processes in (1, 2):
            servers[f"apy_j{processes}"] = start_apy(processes)
        plans = {name: plan(glossa=name == "glossa") for name in servers}
        results = {name: {} for name in servers}
        raw = []
        with multiprocessing.Pool(max(LEVELS) + 1) as pool:
            for name, rows in plans.items():
                for _, _, warm, _ in rows:
                    if warm:
                        worker((servers[name][1], warm, 0, 0, True))
            for _ in range(ROUNDS):
                for k in range(len(plans["glossa"])):
                    for name, rows in plans.items():
                        part, level, _, run = rows[k]
                        results[name].setdefault(part, {}).setdefault(level, []).append(run(pool, servers[name][1]))
                if "translate" in PARTS:
                    raw.append(raw_pipeline_words_per_s())
    finally:
        for proc, _ in servers.values():
            stop(proc)
    results["raw_words_per_s"] = raw
    report(results)
    out = REPO / "bench-output"
    out.mkdir(exist_ok=True)
    (out / "server.json").write_text(json.dumps(results, indent=2))


def median_of(runs, field: str) -> float:
    return statistics.median(run[field] for run in runs)


def ratio(r, part: str, level, field: str, apys) -> float:
    """The median over rounds of Glossa's `field` over the best APy's in the same round."""
    rounds = len(r["glossa"][part][level])
    return statistics.median(r["glossa"][part][level][k][field] / max(r[a][part][level][k][field] for a in apys)
                             for k in range(rounds))


def report(r):
    apys = ["apy_j1", "apy_j2"]
    client = "wrk, 1 thread" if WRK else "one Python process per connection; install wrk for the figures that count"
    print(f"pair eng-spa; FLORES eng dev sentences; {SECONDS:.0f} s per row; 127.0.0.1; load from {client}; "
          f"medians of {ROUNDS} rounds, each row measured on every server in turn; ratios: median of each round's")
    if "translate" in PARTS:
        report_translation(r, apys)
    for kind, unit in (("documents", "documents/s (200-paragraph docx)"), ("analyze", "requests/s (/analyze, a paragraph)")):
        if kind not in PARTS:
            continue
        row = "  ".join(f"{name} {median_of(r[name][kind][4], 'rps'):8.2f}" for name in ["glossa"] + apys)
        errors = sum(run["errors"] for n in ["glossa"] + apys for run in r[n][kind][4])
        print(f"\n{unit}, conc 4: {row}   glossa/APy-best {ratio(r, kind, 4, 'rps', apys):.2f}x   errors {errors}")


def report_translation(r, apys):
    print("\nsingle sentences (identical GET /translate requests):")
    print(f"{'conc':>4} {'server':>8} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}")
    for c in LEVELS:
        for name in ["glossa"] + apys:
            runs = r[name]["single"][c]
            print(f"{c:>4} {name:>8} {median_of(runs, 'rps'):9.1f} {median_of(runs, 'p50_ms'):8.2f} "
                  f"{median_of(runs, 'p99_ms'):8.2f} {sum(run['errors'] for run in runs):6d}")
        best_p99 = min(median_of(r[a]["single"][c], "p99_ms") for a in apys)
        print(f"     ratio glossa/APy-best: {ratio(r, 'single', c, 'rps', apys):.2f}x req/s, "
              f"p99 {median_of(r['glossa']['single'][c], 'p99_ms'):.2f} vs {best_p99:.2f} ms")
    for kind in ("paragraphs", "batches"):
        print(f"\n{kind} (characters/s):")
        for c in (1, 4):
            row = "  ".join(f"{name} {median_of(r[name][kind][c], 'chars_per_s'):9.0f}" for name in ["glossa"] + apys)
            errors = sum(run["errors"] for n in ["glossa"] + apys for run in r[n][kind][c])
            print(f"  conc {c}: {row}   glossa/APy-best {ratio(r, kind, c, 'chars_per_s', apys):.2f}x   errors {errors}")
    words_per_char = sum(len(p.split()) for p in PARAGRAPHS) / sum(len(p) for p in PARAGRAPHS)
    raw = r["raw_words_per_s"]
    print(f"\nraw `apertium -f txt eng-spa` on the paragraphs: {statistics.median(raw):.0f} words/s")
    for kind in ("paragraphs", "batches"):
        for c in (1, 4):
            runs = r["glossa"][kind][c]
            share = statistics.median(run["chars_per_s"] * words_per_char / raw[k] for k, run in enumerate(runs))
            print(f"  glossa {kind} conc {c}: {median_of(runs, 'chars_per_s') * words_per_char:.0f} words/s = {share:.2f} of raw")


if __name__ == "__main__":
    main()
