"""Availability and routing as users meet them, against live `glossa serve` processes:

- a broken pair (synthetic modes whose stage never answers, exits, or names a missing file, added
  through GLOSSA_APERTIUM_MODES, so no broken Debian package is needed) is probed at warm-up,
  marked unavailable with its reason in /glossa/v1/health and `glossa pairs`, listed nowhere, and refused at
  once;
- the Google tutorial app's flow: for every language `/languages?target=en` lists and every source
  that reaches it (per `/glossa/v1/pairs`), translating works; every other combination is refused
  at once, naming what the source reaches.
"""
import json
import os
import pathlib
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from glossa_server import Server, glossa_binary, require_serve

REPO = pathlib.Path(__file__).resolve().parent.parent
PROBE_TEXTS = REPO / "Sources" / "ApertiumEngine" / "Data" / "probe-texts.tsv"

# Pair names no Debian package uses, so the real mode directory cannot shadow them.
SYNTHETIC = {
    "eng-ita": "sed -u ''",                     # works: answers every request with its input
    "eng-deu": "sed -u -n '/ /!p'",             # answers the empty warm-up, never a sentence
    "eng-jpn": "false",                         # exits at once
    "eng-fin": "lt-proc '/usr/share/apertium/glossa-test-missing/eng-fin.automorf.bin'",
}


def call(url, path, params=None):
    """GET (no params) or form POST; returns (status, JSON body, seconds)."""
    data = urllib.parse.urlencode(params, doseq=True).encode() if params is not None else None
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url + path, data=data, timeout=300) as response:
            return response.status, json.load(response), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, json.load(error), time.monotonic() - started


@pytest.fixture()
def isolated(tmp_path, monkeypatch):
    """Synthetic modes beside the real ones. The probe cache is the user's: the real pairs'
    verdicts are shared with every other run (probing all of Debian's pairs takes a minute), and
    the synthetic modes, in a new folder each time, are always probed afresh."""
    modes = tmp_path / "modes"
    modes.mkdir()
    for name, command in SYNTHETIC.items():
        (modes / f"{name}.mode").write_text(command + "\n")
    monkeypatch.setenv("GLOSSA_APERTIUM_MODES", str(modes))
    monkeypatch.setenv("GLOSSA_PREWARM", "none")
    return tmp_path


def test_broken_pairs_are_probed_at_warm_up_listed_nowhere_and_refused_at_once(isolated):
    binary = glossa_binary()
    require_serve(binary)
    server = Server(binary)
    try:
        status, health, _ = call(server.url, "/glossa/v1/health")
        assert status == 200
        unavailable = {k: v for e in health["engines"] for k, v in e["unavailable"].items()}
        loaded = {p for e in health["engines"] for p in e["loaded"]}
        assert "eng-ita" in loaded
        assert "no answer to a test sentence within 10 s (a stage hangs)" in unavailable["eng-deu"]
        assert "broke on an empty request" in unavailable["eng-jpn"]
        assert unavailable["eng-fin"] == "the mode file names /usr/share/apertium/glossa-test-missing/eng-fin.automorf.bin, which does not exist"
        assert not {"eng-deu", "eng-jpn", "eng-fin"} & loaded

        _, languages, _ = call(server.url, "/language/translate/v2/languages")
        codes = {entry["language"] for entry in languages["data"]["languages"]}
        assert "it" in codes and not {"de", "ja", "fi"} & codes
        _, pairs, _ = call(server.url, "/glossa/v1/pairs")
        assert not any(p["target"] in ("de", "ja", "fi") for p in pairs["pairs"])

        for target in ("de", "ja", "fi"):
            status, body, seconds = call(server.url, "/language/translate/v2",
                                         {"q": "Good morning", "source": "en", "target": target, "format": "text"})
            assert status == 400 and seconds < 2, (target, body, seconds)
            assert "No installed pair translates into" in body["error"]["message"]
        status, body, _ = call(server.url, "/language/translate/v2", {"q": "Good morning", "source": "en", "target": "it"})
        assert status == 200 and body["data"]["translations"][0]["translatedText"] == "Good morning"
    finally:
        assert server.stop() == 0


def test_glossa_pairs_names_each_unavailable_pair_and_why(isolated, run):
    p = run("pairs", "--json")
    assert p.returncode == 0, p.stderr.decode()
    rows = json.loads(p.stdout)
    broken = {(r["source"], r["target"]): r for r in rows if r["kind"] == "unavailable"}
    assert "which does not exist" in broken[("en", "fi")]["reason"]
    assert "a stage hangs" in broken[("en", "de")]["reason"]
    assert ("en", "it") in {(r["source"], r["target"]) for r in rows if r["kind"] == "direct"}
    assert not any(r["target"] in ("de", "ja", "fi") for r in rows if r["kind"] != "unavailable")
    # The verdicts are cached: a second listing probes nothing and says nothing about probing.
    again = run("pairs")
    assert again.returncode == 0 and b"checking" not in again.stderr
    assert b"en\tfi\tunavailable: the mode file names" in again.stdout


def probe_texts():
    texts = {}
    for line in PROBE_TEXTS.read_text().splitlines():
        if line and not line.startswith("#"):
            code, text = line.split("\t", 1)
            texts[code] = text
    return texts


def batches(sources, routes, most_pairs=16):
    """Sources grouped so that the pairs their routes use stay few per server: every pair used
    keeps a warm pipeline, and all of Debian's pairs at once would take gigabytes."""
    group, used = [], set()
    for source in sources:
        edges = {(a, b) for path in routes.get(source, []) for a, b in zip(path, path[1:])}
        if group and len(used | edges) > most_pairs:
            yield group
            group, used = [], set()
        group.append(source)
        used |= edges
    if group:
        yield group


def test_google_tutorial_flow_every_listed_target_from_every_source(tmp_path, monkeypatch):
    binary = glossa_binary()
    require_serve(binary)
    monkeypatch.setenv("GLOSSA_PREWARM", "none")
    # One listing, from a server that probed every pair.
    server = Server(binary)
    try:
        _, languages, _ = call(server.url, "/language/translate/v2/languages?target=en")
        _, pairs, _ = call(server.url, "/glossa/v1/pairs")
    finally:
        assert server.stop() == 0
    listed = [entry["language"] for entry in languages["data"]["languages"]]
    assert "es" in listed and all(entry.get("name") for entry in languages["data"]["languages"])
    reach, routes = {}, {}
    for p in pairs["pairs"]:
        reach.setdefault(p["source"], set()).add(p["target"])
        routes.setdefault(p["source"], []).append(p["path"])
    # Every listed language is something a source reaches (a target list holds only targets).
    assert set(listed) <= set().union(*reach.values())
    texts = probe_texts()
    sources = sorted(set(reach) | set(listed))
    failures, checked = [], 0
    for group in batches(sources, routes):
        server = Server(binary)
        try:
            for source in group:
                text = texts.get(source.split("-")[0]) or texts["default"]
                for target in listed:
                    if target == source:
                        continue
                    status, body, seconds = call(server.url, "/language/translate/v2",
                                                 {"q": text, "source": source, "target": target, "format": "text"})
                    checked += 1
                    same_language = source.split("-")[0] == target.split("-")[0]
                    if target in reach.get(source, ()):
                        good = status == 200 and body["data"]["translations"][0]["translatedText"].strip() != ""
                    elif same_language:
                        # Text already in the target's language comes back as it is.
                        good = status == 200 and body["data"]["translations"][0]["translatedText"] == text
                    else:
                        good = status == 400 and seconds < 2 and "can be translated into" in body["error"]["message"] \
                            or status == 400 and seconds < 2 and "No installed pair translates" in body["error"]["message"]
                    if not good:
                        failures.append((source, target, status, str(body)[:160], round(seconds, 2)))
        finally:
            assert server.stop() == 0
    assert not failures, f"{len(failures)} of {checked} combinations misbehave: {failures[:10]}"


def test_apy_mark_unknown_on_a_pivot_marks_only_in_the_last_step(monkeypatch):
    """With the default pairs eng → glg goes eng → spa → glg, and with markUnknown
    `apertium eng-spa | apertium es-gl` gives `**Zorblax` (es-gl reads the first step's `*` as part
    of a word it does not know); Glossa marks only in the last step, as
    `apertium -u eng-spa | apertium es-gl` does. Where eng-glg is installed, another pivot from
    English is used."""
    binary = glossa_binary()
    require_serve(binary)
    monkeypatch.setenv("GLOSSA_PREWARM", "none")
    server = Server(binary)
    try:
        _, pairs, _ = call(server.url, "/glossa/v1/pairs")
        pivots = {p["target"]: p["path"] for p in pairs["pairs"]
                  if p["source"] == "en" and len(p["path"]) >= 3 and "-" not in p["target"]}
        if not pivots:
            pytest.skip("no pivot from English among the installed pairs")
        target = "gl" if "gl" in pivots else sorted(pivots)[0]
        text = "Hello Zorblax, the house is red."
        query = {"langpair": f"en|{target}", "q": text, "format": "txt"}
        status, marked, _ = call(server.url, "/translate?" + urllib.parse.urlencode({**query, "markUnknown": "yes"}))
        assert status == 200, marked
        out = marked["responseData"]["translatedText"]
        assert "*Zorblax" in out and "**" not in out, (pivots[target], out)
        _, unmarked, _ = call(server.url, "/translate?" + urllib.parse.urlencode({**query, "markUnknown": "no"}))
        assert unmarked["responseData"]["translatedText"] == out.replace("*Zorblax", "Zorblax"), pivots[target]
    finally:
        assert server.stop() == 0
