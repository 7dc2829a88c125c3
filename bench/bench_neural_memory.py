"""Memory of many installed neural models with few in use: ten generated Argos packages of
transformer-base size (tests/tools/make_models.py --argos-base: 6+6 layers, 512 wide, int8,
random weights), en→de, en→fr, … installed in one `glossa serve`; its resident memory (VmRSS of
the server process) at start, with 2 pairs used, with all 10 used, and after the models were left
unused for GLOSSA_NEURAL_IDLE_UNLOAD seconds (they are given back). Models load on first use, so
installed models cost disk, not memory, until they are asked for.

Writes bench-output/neural-memory.json. BENCH_IDLE sets the idle seconds (default 3)."""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import urllib.request
import zipfile

from bench_neural_server import make_package
from bench_server import GLOSSA, start_glossa, stop

REPO = pathlib.Path(__file__).resolve().parent.parent
OUT = REPO / "bench-output"
TARGETS = ["de", "fr", "it", "nl", "pl", "sv", "da", "fi", "cs", "hu"]
IDLE = int(os.environ.get("BENCH_IDLE", "3"))


def retargeted(package: str, target: str, folder: pathlib.Path) -> pathlib.Path:
    """The package with its metadata saying en→`target` (the same weights)."""
    name = f"translate-en_{target}-1_0"
    out = folder / f"{name}.argosmodel"
    with zipfile.ZipFile(package) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zout:
        for item in zin.infolist():
            rest = item.filename.split("/", 1)[1] if "/" in item.filename else ""
            data = zin.read(item)
            if rest == "metadata.json":
                metadata = json.loads(data)
                metadata.update(to_code=target, to_name=target)
                data = json.dumps(metadata).encode()
            zout.writestr(f"{name}/{rest}", data)
    return out


def rss_mib(pid: int) -> float:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def in_memory(port: int) -> list[str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/glossa/v1/health") as response:
        health = json.load(response)
    return next(e for e in health["engines"] if e["engine"] == "neural").get("inMemory", [])


def translate(port: int, target: str):
    body = json.dumps({"q": ["The house is big and the garden is green."], "source": "en", "target": target, "format": "text"}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/language/translate/v2", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200


def main():
    kind, package = make_package(OUT / "neural-server-models")
    work = pathlib.Path(tempfile.mkdtemp(prefix="glossa-bench-memory-"))
    try:
        env = {**os.environ, "LC_ALL": "C.UTF-8", "XDG_DATA_HOME": str(work / "data"), "GLOSSA_PREFER": "neural",
               "GLOSSA_PREWARM": "none", "GLOSSA_NEURAL_IDLE_UNLOAD": str(IDLE)}
        for target in TARGETS:
            subprocess.run([GLOSSA, "models", "install", str(retargeted(package, target, work))], check=True, env=env, capture_output=True)
        proc, port = start_glossa(env)
        rows = []
        try:
            time.sleep(1)
            rows.append(("started, 10 installed", rss_mib(proc.pid), in_memory(port)))
            for target in TARGETS[:2]:
                translate(port, target)
            rows.append(("2 in use", rss_mib(proc.pid), in_memory(port)))
            for target in TARGETS:
                translate(port, target)
            rows.append(("all 10 in use", rss_mib(proc.pid), in_memory(port)))
            deadline = time.monotonic() + IDLE * 10
            while in_memory(port) and time.monotonic() < deadline:
                time.sleep(0.5)
            time.sleep(1)
            rows.append((f"after {IDLE} s unused", rss_mib(proc.pid), in_memory(port)))
        finally:
            stop(proc)
        print(f"\n{kind} packages (10 installed), glossa serve resident memory ({os.cpu_count()} CPUs)")
        print("| state | RSS MiB | models in memory |")
        print("| --- | --- | --- |")
        for state, rss, models in rows:
            print(f"| {state} | {rss:.0f} | {len(models)} |")
        two, ten = rows[1][1], rows[2][1]
        print(f"\n2 in use / 10 in use: **{two / ten:.2f}**")
        OUT.mkdir(exist_ok=True)
        (OUT / "neural-memory.json").write_text(json.dumps({"kind": kind, "rows": [
            {"state": s, "rss_mib": r, "in_memory": m} for s, r, m in rows]}, indent=2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
