"""Words per second of `glossa translate` over a large English file against the raw
`apertium eng-spa` command on the same file, in one run; and start-up to the first line."""
import json
import os
import pathlib
import select
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
GLOSSA = os.environ.get("GLOSSA_BIN", str(REPO / ".build" / "release" / "glossa"))
FLORES = REPO.parent / "shared" / "data" / "flores200-dev" / "eng_Latn.dev"
REPEAT = int(os.environ.get("BENCH_REPEAT", "20"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def timed(cmd, path):
    with open(path, "rb") as f:
        start = time.perf_counter()
        p = subprocess.run(cmd, stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"{cmd[0]} failed: {p.stderr.decode()[:500]}")
    return elapsed, p.stdout


def first_line_latency():
    """Seconds from starting `glossa translate` to reading its first translated line."""
    start = time.perf_counter()
    proc = subprocess.Popen([GLOSSA, "translate", "-f", "en", "-t", "es"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    proc.stdin.write(b"Good morning\n")
    proc.stdin.flush()
    select.select([proc.stdout], [], [], 30)
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.stdin.close()
    proc.wait(timeout=30)
    assert b"Buenos" in line, line
    return elapsed


def main():
    text = FLORES.read_text()
    words = len(text.split()) * REPEAT
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text * REPEAT)
        path = f.name
    results = {"words": words, "lines": text.count("\n") * REPEAT, "raw_s": [], "glossa_s": []}
    for _ in range(ROUNDS):
        raw_s, raw_out = timed(["apertium", "eng-spa"], path)
        glossa_s, glossa_out = timed([GLOSSA, "translate", "-f", "en", "-t", "es"], path)
        results["raw_s"].append(raw_s)
        results["glossa_s"].append(glossa_s)
    os.unlink(path)
    raw_lines, glossa_lines = raw_out.count(b"\n"), glossa_out.count(b"\n")
    raw_wps = words / min(results["raw_s"])
    glossa_wps = words / min(results["glossa_s"])
    startup = min(first_line_latency() for _ in range(3))
    results.update(raw_wps=raw_wps, glossa_wps=glossa_wps, ratio=glossa_wps / raw_wps, first_line_s=startup,
                   raw_output_lines=raw_lines, glossa_output_lines=glossa_lines)
    print(f"input: {words} words, {results['lines']} lines (FLORES eng dev x{REPEAT}); best of {ROUNDS}")
    print(f"raw `apertium eng-spa`:      {raw_wps:9.0f} words/s")
    print(f"`glossa translate -f en -t es`: {glossa_wps:9.0f} words/s")
    print(f"ratio glossa/raw:            {glossa_wps / raw_wps:9.3f}   (goal >= 0.95)")
    print(f"start-up to first line:      {startup * 1000:9.0f} ms")
    print(f"output lines: raw {raw_lines}, glossa {glossa_lines} (input {results['lines']})")
    out = REPO / "bench-output"
    out.mkdir(exist_ok=True)
    (out / "cli.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
