"""Language detection: Glossa against CLD2 and lingua, on the same held-out texts, in one run.

Texts: the held-out test set (`make detect-testdata`: FLORES-200 dev lines 801-997 of every model
language, cut into single words, word pairs and sentences as lingua cuts its test data), limited
to the languages lingua knows, at most LIMIT items of each kind per language (default 300).
Accuracy is averaged over languages, as lingua reports it. Speed is texts per second of ONE
thread's CPU time for every detector (CPU time, not wall time, so that the figure holds on a
loaded machine):
- Glossa and CLD2 (Debian's libcld2, best-effort mode) run in-process in the release build of
  `detect-accuracy`, on the same texts;
- lingua (PyPI lingua-language-detector, its Rust core) runs in this process with
  `detect_language_of`, one call per text, in high and low accuracy mode, with all its models
  preloaded (so loading is not timed). Its multi-threaded batch API is not used: the goal is a
  one-thread figure for every detector.
Memory: the Glossa model's in-memory size (tables and index), as `detect-accuracy` prints it.

Usage: python bench/bench_detect.py [LIMIT]; writes bench-output/detect.json.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import time

import release_build  # bench/release_build.py, beside this script

REPO = pathlib.Path(__file__).resolve().parent.parent
TESTDATA = pathlib.Path(os.environ.get("GLOSSA_DETECT_TESTDATA", REPO / ".build" / "detector-model" / "testdata"))
# What the set is, for the printed table: the FLORES hold-out unless GLOSSA_DETECT_TESTDATA names another.
TESTDATA_NAME = "held-out FLORES-200 dev lines 801-997" if "GLOSSA_DETECT_TESTDATA" not in os.environ else "given by GLOSSA_DETECT_TESTDATA"
KINDS = ["single-words", "word-pairs", "sentences"]


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    try:
        from lingua import IsoCode639_1, LanguageDetectorBuilder
    except ImportError:
        print("bench_detect: lingua-language-detector is not installed (bench/requirements.txt; `make bench` installs it)")
        return 1
    if not TESTDATA.is_dir():
        subprocess.run(["make", "--no-print-directory", "detect-testdata"], cwd=REPO, check=True)
    lingua_codes = {}
    for folder in sorted(os.listdir(TESTDATA)):
        base = folder.split("-")[0]
        try:
            lingua_codes[folder] = getattr(IsoCode639_1, base.upper())
        except AttributeError:
            continue
    folders = sorted(lingua_codes)
    items = {f: [(TESTDATA / f / f"{k}.txt").read_text(encoding="utf-8").split("\n") for k in KINDS] for f in folders}
    items = {f: [[t for t in lines if t][:limit] for lines in kinds] for f, kinds in items.items()}

    tool = release_build.build("detect-accuracy")
    out = subprocess.run([str(tool), str(TESTDATA), "--systems", "glossa,cld2",
                          "--only", ",".join(folders), "--limit", str(limit)], cwd=REPO, check=True,
                         capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        if line.startswith("SUMMARY "):
            fields = dict(part.split("=") for part in line.split()[2:])
            rows[line.split()[1]] = {k: float(v) for k, v in fields.items()}
    memory = re.search(r"model in memory: (\d+) bytes", out)
    rss = re.search(r"peak resident memory: (\d+) bytes", out)

    for name, accuracy in [("lingua high accuracy", False), ("lingua low accuracy", True)]:
        builder = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models()
        detector = (builder.with_low_accuracy_mode() if accuracy else builder).build()
        sums, texts, elapsed = [0.0, 0.0, 0.0], 0, 0.0
        for folder in folders:
            expected = lingua_codes[folder]
            for k, kind_items in enumerate(items[folder]):
                start = time.thread_time()
                found = [detector.detect_language_of(t) for t in kind_items]
                elapsed += time.thread_time() - start
                texts += len(kind_items)
                right = sum(1 for f in found if f is not None and f.iso_code_639_1 == expected)
                sums[k] += 100 * right / max(1, len(kind_items))
        n = len(folders)
        rows[name] = {"languages": n, "single": sums[0] / n, "pairs": sums[1] / n, "sentences": sums[2] / n,
                      "texts_per_s": texts / elapsed}

    print(f"Test set {TESTDATA} ({TESTDATA_NAME}), {len(folders)} languages lingua knows, ≤ {limit} items per kind "
          f"and language; accuracy averaged over languages; one thread each.\n")
    print("| detector | single words | word pairs | sentences | texts/s, 1 thread |")
    print("|---|---:|---:|---:|---:|")
    for name in ["glossa", "lingua high accuracy", "lingua low accuracy", "cld2"]:
        r = rows[name]
        print(f"| {name} | {r['single']:.1f} % | {r['pairs']:.1f} % | {r['sentences']:.1f} % | {r['texts_per_s']:,.0f} |")
    g = rows["glossa"]
    print(f"\nGlossa / lingua high: speed ×{g['texts_per_s'] / rows['lingua high accuracy']['texts_per_s']:.1f}; "
          f"Glossa / CLD2: speed ×{g['texts_per_s'] / rows['cld2']['texts_per_s']:.2f}")
    if memory:
        print(f"Glossa model in memory: {int(memory.group(1)) / 2**20:.1f} MiB; detect-accuracy's peak resident memory "
              f"{int(rss.group(1)) / 2**20:.0f} MiB")
    (REPO / "bench-output").mkdir(exist_ok=True)
    (REPO / "bench-output" / "detect.json").write_text(json.dumps(
        {"limit": limit, "languages": folders, "rows": rows,
         "glossa_model_bytes": int(memory.group(1)) if memory else None}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
