"""Instructions per word, counted by valgrind's callgrind (repeatable under any load), for Glossa
serving a fixed eng-spa workload against the raw `apertium -u eng-spa` pipeline on the same text.

    .venv/bin/python bench/bench_instructions.py [GLOSSA_BIN]      (default .build/release/glossa)

Glossa: `glossa serve` (release build, its debug info stripped: valgrind 3.19 cannot read the
DWARF 5 forms Swift's clang writes, `unhandled dwarf2 abbrev form code 0x25`, and gives up — that
was the "SIGSEGV"; the code is byte for byte the same) runs under
`valgrind --tool=callgrind --trace-children=yes`, so the Apertium stages it spawns are counted
too; one warm eng-spa pipeline (GLOSSA_PREWARM=eng-spa, GLOSSA_PIPELINES=1), the translation
cache off (GLOSSA_TRANSLATION_CACHE_MB=0: every segment is translated). Each workload is counted
alone: every process's counters are zeroed (`callgrind_control -z`), the requests sent, then
dumped (`callgrind_control -d`). Raw: `apertium -u eng-spa` on the same text under the same
callgrind (the docx: `apertium -u -f docx eng-spa in.docx out.docx`, its unzip and zip counted),
and once on an empty input; the difference is what the text costs (the stages' start-up,
dictionary loading, is left out, as Glossa's warm pipelines pay it once).

Workloads, FLORES-200 dev English (lines from the start): 50 single sentences (one Google v2
request each), 10 paragraphs of 8 sentences (one request each), one batch of 32 sentences (one
request), and a 200-paragraph docx (APy's /translateDoc, markUnknown=no as `apertium -u`). Words: whitespace-separated tokens of
the source text. Prints a table by process and writes bench-output/instructions.json.
"""
import glob
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "bench-output" / "callgrind"
sys.path.insert(0, str(ROOT / "bench"))
import callgrind_files  # noqa: E402
from flores_documents import SENTENCES, docx_bytes  # noqa: E402


def workloads():
    """(name, texts as sent, the document for raw `apertium -f docx` (else the texts go one per
    line), requests as (method, path, body, headers))."""
    sentences = SENTENCES[:50]
    paragraphs = [" ".join(SENTENCES[i:i + 8]) for i in range(0, 80, 8)]
    batch = SENTENCES[100:132]
    form = lambda q: urllib.parse.urlencode([("source", "en"), ("target", "es"), ("format", "text")] + [("q", t) for t in q]).encode()
    v2 = "/language/translate/v2"
    ct = {"Content-Type": "application/x-www-form-urlencoded"}
    document = docx_bytes(200)
    boundary = "glossa-bench-7f3a"
    # markUnknown=no, as `apertium -u` on the raw side: APy's default (marks) runs the pipeline
    # with another generator option, which is another pipeline, started (and its dictionaries
    # loaded) inside the count; that start-up, not the document, was the docx's extra lt-proc work.
    upload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"langpair\"\r\n\r\neng|spa\r\n"
              f"--{boundary}\r\nContent-Disposition: form-data; name=\"markUnknown\"\r\n\r\nno\r\n"
              f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"doc.docx\"\r\n"
              "Content-Type: application/octet-stream\r\n\r\n").encode() + document + f"\r\n--{boundary}--\r\n".encode()
    docx_texts = [SENTENCES[i] + (" " + SENTENCES[i + 1].split(" ")[0] if i % 3 == 0 else "") for i in range(200)]
    return [
        ("sentences", sentences, None, [("POST", v2, form([s]), ct) for s in sentences]),
        ("paragraphs", paragraphs, None, [("POST", v2, form([p]), ct) for p in paragraphs]),
        ("batch of 32", batch, None, [("POST", v2, form(batch), ct)]),
        ("docx, 200 paragraphs", docx_texts, document,
         [("POST", "/translateDoc", upload, {"Content-Type": f"multipart/form-data; boundary={boundary}"})]),
    ]


def stripped_binaries(binary: str) -> str:
    """Copies of glossa and glossa-apertium-tagger without debug info, side by side."""
    folder = OUT / "bin"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("glossa", "glossa-apertium-tagger"):
        callgrind_files.stripped_copy(str(pathlib.Path(binary).parent / name), str(folder / name))
    return str(folder / "glossa")


def totals(pattern: str) -> dict:
    """Instructions by program, summed over the callgrind files matching `pattern`."""
    by_program: dict[str, int] = {}
    for path in glob.glob(pattern):
        command, count = callgrind_files.program_and_instructions(path)
        if command:
            program = os.path.basename(command.split()[0])
            by_program[program] = by_program.get(program, 0) + (count or 0)
    return by_program


# This run's own vgdb prefix: callgrind_control without a PID zeroes and dumps every callgrind run
# on the machine that shares its prefix, another benchmark's included (it spoiled one).
VGDB_PREFIX = f"{tempfile.gettempdir()}/glossa-bench-instructions-{os.getpid()}"


def callgrind(out: str, *command: str) -> list:
    return ["valgrind", "--tool=callgrind", "--trace-children=yes", f"--vgdb-prefix={VGDB_PREFIX}",
            f"--callgrind-out-file={out}", *command]


def control(action: str) -> None:
    """Zeroes (-z) or dumps (-d) the counters of this run's processes only."""
    subprocess.run(["callgrind_control", f"--vgdb-prefix={VGDB_PREFIX}", action], capture_output=True, check=True)


def raw_apertium(name: str, texts: list[str], document: bytes | None) -> dict:
    """What `apertium -u eng-spa` spends on `texts` (one per line), or `apertium -f docx` on
    `document`, by program, with the stages' start-up (the same run on an empty input) removed."""
    counts = {}
    for label in ("text", "empty"):
        folder = OUT / "raw" / re.sub(r"\W+", "-", name) / label
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        if document is not None and label == "text":
            (folder / "in.docx").write_bytes(document)
            command = ["apertium", "-u", "-f", "docx", "eng-spa", str(folder / "in.docx"), str(folder / "out.docx")]
            text = b""
        else:
            command = ["apertium", "-u", "eng-spa"]
            text = ("\n".join(texts) + "\n").encode() if label == "text" else b""
        subprocess.run(callgrind(str(folder / "cg.%p"), *command), input=text,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        counts[label] = totals(str(folder / "cg.*"))
    return {p: counts["text"].get(p, 0) - counts["empty"].get(p, 0) for p in counts["text"]}


def main() -> int:
    if not shutil.which("valgrind"):
        print("valgrind is not installed (Debian package valgrind)")
        return 1
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "release" / "glossa")
    glossa = stripped_binaries(binary)
    folder = OUT / "glossa"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "GLOSSA_PREWARM": "eng-spa", "GLOSSA_PIPELINES": "1", "GLOSSA_TRANSLATION_CACHE_MB": "0",
               "XDG_DATA_HOME": f"{home}/data", "GLOSSA_PROBE_CACHE": f"{home}/probes.json", "LC_ALL": "C.UTF-8"}
        # The pairs are checked natively first, into a probe cache of this run's own: under
        # callgrind a stage loads its dictionaries too slowly for the check's time limits, and
        # a verdict written then would say the pair is broken (never into the user's cache).
        subprocess.run([glossa, "pairs"], env=env, capture_output=True, check=True, timeout=600)
        server = subprocess.Popen(callgrind(str(folder / "cg.%p"), glossa, "serve", "--port", "0"), env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        url = None
        for line in server.stdout:
            if "listening on" in line:
                url = re.search(r"http://\S+", line).group(0)
            if "glossa serve: ready" in line:
                break
        send = lambda method, path, body, headers: urllib.request.urlopen(
            urllib.request.Request(url + path, data=body, headers=headers, method=method), timeout=600).read()
        send("GET", "/language/translate/v2?q=Hello&source=en&target=es", None, {})
        report = []
        try:
            for name, texts, document, requests in workloads():
                before = set(glob.glob(str(folder / "cg.*")))
                control("-z")
                for request in requests:
                    send(*request)
                control("-d")
                time.sleep(1)
                dumped = set(glob.glob(str(folder / "cg.*"))) - before
                ours: dict[str, int] = {}
                for path in dumped:
                    for program, count in totals(path).items():
                        ours[program] = ours.get(program, 0) + count
                raw = raw_apertium(name, texts, document)
                words = sum(len(t.split()) for t in texts)
                report.append({"workload": name, "words": words, "glossa": ours, "raw": raw})
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=300)
    print("Instructions per word (callgrind; eng-spa; FLORES-200 dev English):")
    print(f"{'workload':22s} {'words':>6s} {'Glossa total':>13s} {'raw apertium':>13s} {'ratio':>6s} {'glossa process':>15s} {'share':>6s}")
    for row in report:
        total = sum(row["glossa"].values())
        raw = sum(row["raw"].values())
        own = row["glossa"].get("glossa", 0)
        row.update({"glossa_per_word": total / row["words"], "raw_per_word": raw / row["words"],
                    "ratio": total / raw if raw else None, "glossa_process_share": own / total if total else None})
        print(f"{row['workload']:22s} {row['words']:6d} {total / row['words']:13,.0f} {raw / row['words']:13,.0f} "
              f"{row['ratio']:6.2f} {own / row['words']:15,.0f} {row['glossa_process_share']:6.1%}")
        stages = sorted(set(row["glossa"]) | set(row["raw"]), key=lambda p: -row["glossa"].get(p, 0))
        for program in stages:
            print(f"    {program:28s} Glossa {row['glossa'].get(program, 0) / row['words']:12,.0f}   raw {row['raw'].get(program, 0) / row['words']:12,.0f}")
    (ROOT / "bench-output").mkdir(exist_ok=True)
    (ROOT / "bench-output" / "instructions.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
