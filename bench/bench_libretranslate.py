"""Glossa against LibreTranslate 1.9.6 (PyPI `libretranslate`, in its own virtual environment in
bench-output/libretranslate/venv), both serving the same generated Argos package
(tests/tools/make_models.py) on 127.0.0.1 and both sent LibreTranslate's own request
(`POST /translate`, form body, source=en, target=de), in one run:

- single sentences (FLORES eng dev): requests/s and p50/p99 latency at concurrency 1, 4 and 16;
- paragraphs (8 sentences each): characters/s at concurrency 1 and 4;
- peak memory (VmHWM) of each server process;
- the translations themselves, compared, so a speed ratio is not read over different work.

Offline, LibreTranslate cannot translate with the package exactly as generated: its default
sentence splitter, MiniSBD, downloads an ONNX model from GitHub on first use (minisbd/models.py
`get_model_file`, a 500 "internal error" here), and its other splitters need downloads too
(stanza's models; spaCy's xx_sent_ud_sm) unless the package ships a spaCy pipeline. So the package
both servers get is the generated one plus a blank spaCy pipeline in `spacy/` (Argos's place for a
packaged sentencizer; LibreTranslate adds spaCy's rule-based sentencizer to it, cheaper than
MiniSBD), and LibreTranslate runs with ARGOS_CHUNK_TYPE=SPACY. Glossa ignores the extra folder.
LibreTranslate also downloads its package index at boot unless two packages are installed, so the
same model is installed as en→de and de→en.

The model's weights are random, so the two decoders' outputs differ: Argos decodes with beam 4,
length penalty 0.2 and no n-gram block (its word salad runs to the 256-token limit), Glossa with
beam 4, length penalty 1 and no repeated 4-grams (its default guard), so Glossa writes fewer
tokens per request. The report says how many translations are identical and also gives the ratio
per output character.

LibreTranslate's configurations: waitress --threads 4 (its default) with CTranslate2 one
inter-thread (Argos's default), and --threads 8 with two inter-threads; "LT best" is the better of
the two at each level. Glossa runs as `glossa serve` with its defaults. BENCH_SECONDS sets the
seconds per measurement (default 5)."""
import json
import multiprocessing
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_server as common  # noqa: E402  (shared load generator and helpers)

REPO = common.REPO
OUT = REPO / "bench-output" / "libretranslate"
VENV = OUT / "venv"
LT_VERSION = "1.9.6"
SPACY_VERSION = "3.8.18"
LEVELS = common.LEVELS
SENTENCES = common.SENTENCES[:200]
PARAGRAPHS = common.PARAGRAPHS
CONFIGS = {"lt_t4_i1": {"threads": 4, "inter": 1}, "lt_t8_i2": {"threads": 8, "inter": 2}}


def lt_request(text: str):
    body = urllib.parse.urlencode({"q": text, "source": "en", "target": "de"})
    return ("POST", "/translate", body, {"Content-Type": "application/x-www-form-urlencoded"})


def ensure_venv() -> pathlib.Path:
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    check = subprocess.run([str(python), "-c", f"import importlib.metadata as m; assert m.version('libretranslate') == '{LT_VERSION}'; import spacy"],
                           capture_output=True)
    if check.returncode != 0:
        print(f"installing libretranslate=={LT_VERSION} and spacy=={SPACY_VERSION} into {VENV} …", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        f"libretranslate=={LT_VERSION}", f"spacy=={SPACY_VERSION}"], check=True)
    return python


def make_packages(python: pathlib.Path) -> dict:
    """The generated package (en→de), with a blank spaCy pipeline added, and its de→en twin."""
    models = OUT / "models"
    manifest = json.loads(subprocess.run([sys.executable, str(REPO / "tests" / "tools" / "make_models.py"), str(models)],
                                         check=True, capture_output=True, text=True).stdout)
    spacy_dir = OUT / "spacy-blank"
    subprocess.run([str(python), "-c", f"import spacy; spacy.blank('en').to_disk({str(spacy_dir)!r})"], check=True)
    source = manifest["argosmodel"]
    packages = {}
    for frm, to, frm_name, to_name in [("en", "de", "English", "German"), ("de", "en", "German", "English")]:
        name = f"translate-{frm}_{to}-1_0"
        path = OUT / f"{name}.argosmodel"
        with zipfile.ZipFile(source) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
            for item in zin.infolist():
                data = zin.read(item.filename)
                entry = item.filename.replace("translate-en_de-1_0", name)
                if entry.endswith("metadata.json"):
                    metadata = json.loads(data)
                    metadata.update(from_code=frm, from_name=frm_name, to_code=to, to_name=to_name)
                    data = json.dumps(metadata, indent=2).encode()
                zout.writestr(entry, data)
            for file in sorted(spacy_dir.rglob("*")):
                if file.is_file():
                    zout.write(file, f"{name}/spacy/{file.relative_to(spacy_dir)}")
        packages[f"{frm}-{to}"] = path
    return packages


def lt_environment(home: pathlib.Path, inter: int) -> dict:
    env = {**common.ENV, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache"),
           "XDG_CONFIG_HOME": str(home / "config"), "ARGOS_CHUNK_TYPE": "SPACY", "ARGOS_INTER_THREADS": str(inter)}
    # Argos looks for a cached xx_sent_ud_sm at import under ARGOS_CHUNK_TYPE=SPACY and downloads
    # it when absent; the package brings its own pipeline, so mark the cache as present.
    (home / "cache" / "argos-translate" / "spacy" / "senter" / "model").mkdir(parents=True, exist_ok=True)
    return env


def start_lt(python: pathlib.Path, packages: dict, threads: int, inter: int):
    home = pathlib.Path(tempfile.mkdtemp(prefix="lt-home-", dir=OUT))
    env = lt_environment(home, inter)
    install = "import argostranslate.package as p, sys\nfor f in sys.argv[1:]: p.install_from_path(f)"
    subprocess.run([str(python), "-c", install, *map(str, packages.values())], check=True, env=env, capture_output=True)
    port = common.free_port()
    proc = subprocess.Popen([str(VENV / "bin" / "libretranslate"), "--host", "127.0.0.1", "--port", str(port),
                             "--threads", str(threads), "--disable-files-translation", "--disable-web-ui"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    common.wait_ready(port, "/languages", timeout=300)
    return proc, port


def start_glossa(packages: dict):
    data = pathlib.Path(tempfile.mkdtemp(prefix="glossa-data-", dir=OUT))
    env = {**common.ENV, "XDG_DATA_HOME": str(data), "GLOSSA_PREFER": "neural", "GLOSSA_PREWARM": "none"}
    subprocess.run([common.GLOSSA, "models", "install", str(packages["en-de"])], check=True, env=env, capture_output=True)
    proc = subprocess.Popen([common.GLOSSA, "serve", "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if not match:
        proc.kill()
        sys.exit(f"glossa serve did not start (first line {line!r})")
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    port = int(match.group(1))
    common.wait_ready(port, "/health")
    return proc, port


def peak_rss_mb(pid: int) -> float:
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024


def translations(port: int) -> list:
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    out = []
    for sentence in SENTENCES[:50]:
        method, path, body, headers = lt_request(sentence)
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        out.append(json.loads(response.read()).get("translatedText") if response.status == 200 else None)
    conn.close()
    return out


def measure(pool, proc, port: int) -> dict:
    single = [lt_request(s) for s in SENTENCES]
    for request in single[:10]:  # load the model, warm the caches
        common.worker((port, [request], 0, 0, True))
    result = {"outputs": translations(port)}
    result["single"] = {c: common.load(pool, port, single, c, common.SECONDS) for c in LEVELS}
    paragraphs = [lt_request(p) for p in PARAGRAPHS]
    chars = sum(len(p) for p in PARAGRAPHS)
    result["paragraphs"] = {c: common.volume(pool, port, paragraphs, chars, c) for c in (1, 4)}
    result["peak_rss_mb"] = peak_rss_mb(proc.pid)
    return result


def main():
    multiprocessing.set_start_method("fork")
    OUT.mkdir(parents=True, exist_ok=True)
    python = ensure_venv()
    packages = make_packages(python)
    results = {}
    with multiprocessing.Pool(max(LEVELS) + 1) as pool:
        proc, port = start_glossa(packages)
        try:
            results["glossa"] = measure(pool, proc, port)
        finally:
            common.stop(proc)
        for name, config in CONFIGS.items():
            proc, port = start_lt(python, packages, config["threads"], config["inter"])
            try:
                results[name] = measure(pool, proc, port)
            finally:
                common.stop(proc)
    report(results)
    (REPO / "bench-output" / "libretranslate.json").write_text(json.dumps(results, indent=2))


def report(r):
    g = r["glossa"]
    peers = list(CONFIGS)
    print(f"generated Argos package en→de (make_models.py); FLORES eng dev; {common.SECONDS:.0f} s per level; 127.0.0.1; "
          f"identical LibreTranslate POST /translate requests")
    same = sum(a == b for a, b in zip(g["outputs"], r[peers[0]]["outputs"]))
    mean = {n: sum(len(t or "") for t in r[n]["outputs"]) / len(r[n]["outputs"]) for n in ["glossa"] + peers}
    print(f"translations of 50 sentences identical to LibreTranslate's: {same}/50; mean output characters "
          + ", ".join(f"{n} {m:.0f}" for n, m in mean.items()))
    print(f"\n{'conc':>4} {'server':>9} {'req/s':>9} {'p50 ms':>9} {'p99 ms':>9} {'errors':>6}")
    for c in LEVELS:
        for name in ["glossa"] + peers:
            s = r[name]["single"][c]
            print(f"{c:>4} {name:>9} {s['rps']:9.1f} {s['p50_ms']:9.2f} {s['p99_ms']:9.2f} {s['errors']:6d}")
        best = max(r[p]["single"][c]["rps"] for p in peers)
        best_p99 = min(r[p]["single"][c]["p99_ms"] for p in peers)
        print(f"     ratio glossa/LT-best: {g['single'][c]['rps'] / best:.2f}x req/s, p99 {g['single'][c]['p99_ms']:.1f} vs {best_p99:.1f} ms")
        # The random model's outputs differ in length between the two decoders (see the header),
        # so the same ratio per output character: translated characters written per second.
        out = {n: r[n]["single"][c]["rps"] * mean[n] for n in ["glossa"] + peers}
        print(f"     per output character: glossa {out['glossa']:.0f}/s vs LT-best {max(out[p] for p in peers):.0f}/s = "
              f"{out['glossa'] / max(out[p] for p in peers):.2f}x")
    print("\nparagraphs (characters/s):")
    for c in (1, 4):
        row = "  ".join(f"{n} {r[n]['paragraphs'][c]['chars_per_s']:9.0f}" for n in ["glossa"] + peers)
        best = max(r[p]["paragraphs"][c]["chars_per_s"] for p in peers)
        print(f"  conc {c}: {row}   glossa/LT-best {g['paragraphs'][c]['chars_per_s'] / best:.2f}x")
    print("\npeak memory (VmHWM): " + ", ".join(f"{n} {r[n]['peak_rss_mb']:.0f} MiB" for n in ["glossa"] + peers))


if __name__ == "__main__":
    if sys.argv[1:] == ["--report"]:  # print the last run's report again
        report(json.loads((REPO / "bench-output" / "libretranslate.json").read_text(),
                          object_hook=lambda d: {int(k) if k.isdigit() else k: v for k, v in d.items()}))
    else:
        main()
