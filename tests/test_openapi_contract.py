"""`/openapi.json` as a contract, checked against a live `glossa serve` with the real Apertium pairs by
schemathesis (the property-based API tester most OpenAPI tooling points at): over every operation of every
dialect, requests generated from the document (valid ones and broken ones) must get a status the
operation documents (status_code_conformance), a body that matches the documented schema for that
status and media type (response_schema_conformance) and never a 5xx (not_a_server_error).

Two runs, both bounded and deterministic so CI repeats them exactly: one where every parameter is
generated (mostly refusals: every dialect's error envelope and statuses), and one where the language
parameters name installed languages and the glossary paths an existing glossary, so the answers are
mostly 200s and their bodies are checked against each protocol's documented shape.

One exception, said in the document itself: APy's /translateRaw labels its body application/json, as APy
does, though it is Apertium's stream format, so its body is not parsed as JSON (its status still is checked)."""
import json
import pathlib
import re
import subprocess
import sys
import time

from glossa_server import call, server  # noqa: F401  (the fixture)

SCHEMATHESIS = pathlib.Path(sys.executable).parent / "schemathesis"
CHECKS = "not_a_server_error,status_code_conformance,response_schema_conformance"
# Per operation and phase; with about 120 operations this keeps each run near a minute on 2 cores.
EXAMPLES = 5

CONFIG = """
[[operations]]
include-path = "/translateRaw"
checks.response_schema_conformance.enabled = false
"""

# Values that reach the 200 answers: installed languages (en, es; APy's eng|spa), DeepL's and Google
# v3's names for them, an existing glossary. The bodies of POSTs are still generated.
REALISTIC = """
[parameters]
"query.target" = "es"
"query.source" = "en"
"query.langpair" = "eng|spa"
"query.lang" = "eng"
"query.modes" = "morph"
"query.target_lang" = "ES"
"query.source_lang" = "EN"
"query.type" = "target"
"query.resource" = "translate_text"
"query.displayLanguageCode" = "es"
"query.locale" = "es"
"query.v" = "1.0"
"path.project" = "glossa-contract"
"path.location" = "global"
"path.glossary_id" = "{glossary}"
"path.glossary" = "{glossary}"
"""


def run_schemathesis(server, tmp_path, name, config):
    path = tmp_path / f"{name}.toml"
    path.write_text(config)
    command = [str(SCHEMATHESIS), "--config-file", str(path), "--no-color", "run", f"{server.url}/openapi.json",
               "--checks", CHECKS, "--max-examples", str(EXAMPLES), "--phases", "examples,coverage,fuzzing",
               "--generation-deterministic",
               # One worker: requests in one order, so a run is repeated exactly (with two, an order-dependent
               # hypothesis "flaky" verdict with no failing check was seen).
               "--workers", "1",
               "--request-timeout", "60", "--suppress-health-check", "all"]
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    elapsed = time.monotonic() - started
    summary = result.stdout[result.stdout.find("=== SUMMARY"):] if "=== SUMMARY" in result.stdout else result.stdout[-3000:]
    print(f"schemathesis ({name}) in {elapsed:.0f} s:\n{summary}")
    # On failure: schemathesis's own report of each failing operation (with a curl to reproduce it).
    report = result.stdout[min([i for i in (result.stdout.find("=== FAILURES"), result.stdout.find("=== ERRORS")) if i >= 0],
                               default=max(0, len(result.stdout) - 15000)):][:15000]
    assert result.returncode == 0, f"schemathesis found answers that break the contract:\n{report}\n{result.stderr[-3000:]}"
    # Every operation of the document was tested, none skipped or errored.
    _, _, document = call(server, "GET", "/openapi.json")
    operations = sum(len(item) for item in json.loads(document)["paths"].values())
    assert re.search(rf"Tested: {operations}\b", result.stdout), summary


def test_generated_requests_get_documented_answers(server, tmp_path):
    run_schemathesis(server, tmp_path, "generated", CONFIG)


def test_answers_with_installed_languages_match_their_schemas(server, tmp_path):
    entries = "house\tcasa\ncat\tgato"
    status, _, body = call(server, "POST", "/v2/glossaries",
                           json.dumps({"name": "contract", "source_lang": "en", "target_lang": "es", "entries": entries,
                                       "entries_format": "tsv"}).encode(), {"Content-Type": "application/json"})
    assert status == 201, body
    glossary = json.loads(body)["glossary_id"]
    run_schemathesis(server, tmp_path, "installed", CONFIG + REALISTIC.replace("{glossary}", glossary))
