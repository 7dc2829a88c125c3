"""Glossa's own memory at start, against a budget and against APy's in the same run.

`glossa serve` (release build, no warm pairs, its own data and cache folders) is started; the
resident memory (VmRSS) and the proportional set size (PSS, shared pages divided among their
users) of the `glossa` process itself (not its Apertium pipelines, which are children) are read
when it says it is listening, when it says ready (every installed pair checked), and after 20
translations of one sentence (eng-spa). Debian's apertium-apy is started on the same modes
folder (one process, `-j 1`) and its Python process read the same way after its first answer and
after 20 translations. Three rounds, medians.

Budget: Glossa's own resident memory after the first translations at most 96 MiB (the
detector's tables are about 25 MiB of it; the rest is the Swift runtime, the HTTP server, the
route tables of every installed pair and the translation cache's entries). The run fails (exit 1)
past the budget.

    .venv/bin/python bench/bench_start_memory.py [GLOSSA_BIN]
"""
import json
import os
import pathlib
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from apy_peer import APY, Peer  # noqa: E402

BUDGET_MIB = 96
ROUNDS = 3


def memory_kib(pid: int) -> dict:
    """VmRSS from /proc/PID/status and PSS from /proc/PID/smaps_rollup, in KiB."""
    out = {}
    for path, key in ((f"/proc/{pid}/status", "VmRSS"), (f"/proc/{pid}/smaps_rollup", "Pss")):
        with open(path) as f:
            for line in f:
                if line.startswith(key + ":"):
                    out[key] = int(line.split()[1])
    return out


def translate(url: str, path: str, times: int = 20) -> None:
    for _ in range(times):
        with urllib.request.urlopen(url + path, timeout=120) as response:
            response.read()


def glossa_round(binary: str) -> dict:
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "GLOSSA_PREWARM": "none", "XDG_DATA_HOME": f"{home}/data", "XDG_CACHE_HOME": f"{home}/cache",
               "LC_ALL": "C.UTF-8"}
        proc = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=env)
        figures, url = {}, None
        try:
            for line in proc.stdout:
                if "listening on" in line:
                    url = re.search(r"http://[^\s]+", line).group(0)
                    figures["listening"] = memory_kib(proc.pid)
                if "glossa serve: ready" in line:
                    figures["ready"] = memory_kib(proc.pid)
                    break
            translate(url, "/language/translate/v2?q=Good+morning&source=en&target=es&format=text")
            figures["translated"] = memory_kib(proc.pid)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
    return figures


def apy_round() -> dict:
    with tempfile.TemporaryDirectory() as export:
        peer = Peer(export)
        try:
            figures = {"ready": memory_kib(peer.proc.pid)}
            translate(peer.url, "/translate?langpair=eng|spa&q=Good+morning")
            figures["translated"] = memory_kib(peer.proc.pid)
        finally:
            peer.stop()
    return figures


def main() -> int:
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GLOSSA_BIN", str(ROOT / ".build" / "release" / "glossa"))
    rounds = [glossa_round(binary) for _ in range(ROUNDS)]
    peers = [apy_round() for _ in range(ROUNDS)] if APY else []
    median = lambda rs, stage, key: statistics.median(r[stage][key] for r in rs) / 1024
    report = {"glossa": {stage: {k: round(median(rounds, stage, k), 1) for k in ("VmRSS", "Pss")}
                         for stage in ("listening", "ready", "translated")},
              "apy": {stage: {k: round(median(peers, stage, k), 1) for k in ("VmRSS", "Pss")}
                      for stage in ("ready", "translated")} if peers else None,
              "budget_mib": BUDGET_MIB, "binary": binary, "rounds": ROUNDS}
    print("Glossa's own process (MiB, medians of %d rounds; pipelines are children, not counted):" % ROUNDS)
    for stage, values in report["glossa"].items():
        print(f"  {stage:10s} RSS {values['VmRSS']:6.1f}  PSS {values['Pss']:6.1f}")
    if peers:
        print("APy's Python process (apertium-apy -j 1, same modes folder):")
        for stage, values in report["apy"].items():
            print(f"  {stage:10s} RSS {values['VmRSS']:6.1f}  PSS {values['Pss']:6.1f}")
        ratio = report["glossa"]["translated"]["VmRSS"] / report["apy"]["translated"]["VmRSS"]
        report["ratio_rss_after_translations"] = round(ratio, 2)
        print(f"Glossa / APy resident memory after 20 translations: {ratio:.2f}")
    else:
        print("apertium-apy is not installed (Debian package apertium-apy; make deps-test installs it): no peer figure")
    out = ROOT / "bench-output" / "start_memory.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    over = report["glossa"]["translated"]["VmRSS"] > BUDGET_MIB
    print(f"budget {BUDGET_MIB} MiB: {'OVER' if over else 'within'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
