"""Where one paragraph at a time goes, against the raw `apertium eng-spa` command: words/s at
concurrency 1 and 4 (APy's `/translate` GET of the bench's 8-sentence paragraphs, from wrk), the
share of the two cores busy meanwhile (/proc/stat), and the CPU each process took per word
(/proc/<pid>/stat of every process, grouped by name); then the raw command over the same
paragraphs (x10) with its CPU from getrusage. Glossa runs with each GLOSSA_PIPELINES value given
(default 1,2), all servers side by side, rounds alternating with the raw command.

Usage: python bench/paragraph_cpu.py [PIPELINES [ROUNDS]], e.g. `python bench/paragraph_cpu.py 1,2 2`
after `make build-release` (wrk installed: scripts/install-deps.sh bench)."""
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_server as B  # noqa: E402
from wrk_load import wrk_load  # noqa: E402

HZ = os.sysconf("SC_CLK_TCK")
WORDS_PER_PARAGRAPH = statistics.mean(len(p.split()) for p in B.PARAGRAPHS)


def idle_and_total() -> tuple[int, int]:
    fields = list(map(int, open("/proc/stat").readline().split()[1:]))
    return fields[3] + fields[4], sum(fields)


def cpu_by_process() -> dict[int, tuple[str, int]]:
    """Every process's (name, user + system ticks)."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            out[int(entry)] = (stat[stat.index("(") + 1:stat.rindex(")")], int(fields[11]) + int(fields[12]))
    return out


def cpu_per(before, after, units: float, at_least: float) -> dict[str, float]:
    """µs of CPU per unit (word, request) by process name between two `cpu_by_process()`
    readings, the PostgreSQL backends together; names under `at_least` µs are left out."""
    spent: dict[str, float] = {}
    for pid, (name, ticks) in after.items():
        delta = ticks - before.get(pid, (name, 0))[1]
        if delta > 0:
            name = "postgres" if name.startswith("postgres") else name
            spent[name] = spent.get(name, 0) + delta / HZ
    return {name: seconds / units * 1e6 for name, seconds in spent.items() if seconds / units * 1e6 >= at_least}


def translate_get(text: str):
    """APy's `/translate` GET of `text`, eng-spa (the format left to the server's default)."""
    return ("GET", "/translate?" + urllib.parse.urlencode({"langpair": "eng|spa", "q": text}), None, {})


def raw_run(path: str, words: int) -> tuple[float, float]:
    """Raw words/s and µs of CPU per word (every stage, from getrusage of the waited children)."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    with open(path, "rb") as source:
        subprocess.run(["apertium", "-f", "txt", "eng-spa"], stdin=source, stdout=subprocess.DEVNULL, check=True, env=B.ENV)
    elapsed, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return words / elapsed, cpu / words * 1e6, cpu / elapsed


def main():
    pipelines = (sys.argv[1] if len(sys.argv) > 1 else "1,2").split(",")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    requests = [translate_get(p) for p in B.PARAGRAPHS]
    text = "\n".join(B.PARAGRAPHS * 10) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    servers = {}
    try:
        for count in pipelines:
            servers[count] = B.start_glossa({**B.ENV, "GLOSSA_PIPELINES": count})
        for _ in range(rounds):
            raw_wps, raw_us, raw_cores = raw_run(f.name, len(text.split()))
            print(f"raw apertium: {raw_wps:.0f} words/s, {raw_us:.1f} µs CPU/word, {raw_cores:.2f} cores")
            for count, (_, port) in servers.items():
                for concurrency in (1, 4):
                    idle0, total0 = idle_and_total()
                    before = cpu_by_process()
                    result = wrk_load(port, requests, B.SECONDS, concurrency)
                    after = cpu_by_process()
                    idle1, total1 = idle_and_total()
                    words = result["requests"] * WORDS_PER_PARAGRAPH
                    busy = os.cpu_count() * (1 - (idle1 - idle0) / max(1, total1 - total0))
                    costs = cpu_per(before, after, words, at_least=0.5)
                    top = ", ".join(f"{name} {us:.1f}" for name, us in sorted(costs.items(), key=lambda kv: -kv[1])[:6])
                    print(f"  glossa, {count} pipeline(s), c{concurrency}: {result['rps'] * WORDS_PER_PARAGRAPH / raw_wps:.2f} of raw, "
                          f"{busy:.2f} cores busy, {sum(costs.values()):.1f} µs CPU/word (wrk included; {top})")
    finally:
        os.unlink(f.name)
        for proc, _ in servers.values():
            B.stop(proc)


if __name__ == "__main__":
    main()
