"""The neural engine keeps markup, placeholders and glossary terms, as the Apertium engine does:
a generated en→de Argos package (random weights: the test checks what must stay, not the words)
installed in a live `glossa serve`, asked through DeepL with tag_handling=html and a glossary,
and through Google v2 in html and text. Every tag comes back in its order, a translate="no" and
an ignore_tags element come back whole, placeholders and target terms come back byte for byte."""
import json
import re
import subprocess

import pytest

from glossa_server import Server, call, glossa_binary
from test_readme import argos_package  # noqa: F401  (the generated package, a fixture)

AUTH = {"Content-Type": "application/json", "Authorization": "DeepL-Auth-Key k"}
HTML = ('<p class="x">Good <b>morning</b>, {name}!</p><span translate="no">Keep me</span>'
        '<keep>also kept</keep><ul><li>The house &amp; the %s garden</li></ul>')


@pytest.fixture(scope="module")
def neural_server(tmp_path_factory, argos_package):  # noqa: F811
    data = tmp_path_factory.mktemp("neural-data")
    installed = subprocess.run([glossa_binary(), "models", "install", str(argos_package)], capture_output=True, text=True,
                               timeout=300, env={"XDG_DATA_HOME": str(data), "PATH": "/usr/bin:/bin"})
    assert installed.returncode == 0, installed.stderr
    s = Server(glossa_binary(), env_extra={"XDG_DATA_HOME": str(data)})
    yield s
    assert s.stop() == 0


def tags(html: str) -> list[str]:
    return re.findall(r"<[^>]+>", html)


def deepl(server, body):
    status, _, answer = call(server, "POST", "/v2/translate", json.dumps(body).encode(), AUTH)
    assert status == 200, answer
    return json.loads(answer)["translations"][0]["text"]


def test_html_keeps_every_tag_and_what_is_not_to_be_translated(neural_server):
    out = deepl(neural_server, {"text": [HTML], "source_lang": "EN", "target_lang": "DE", "tag_handling": "html", "ignore_tags": ["keep"]})
    # The tags of what is translated, in order; untranslated elements whole.
    assert tags(out) == tags(HTML), out
    assert '<span translate="no">Keep me</span>' in out and "<keep>also kept</keep>" in out
    assert "{name}" in out and "%s" in out, out
    # What the model wrote is escaped for HTML: no stray markup from the text.
    assert re.sub(r"<[^>]+>", "", out).count("<") == 0


def test_a_glossary_term_and_placeholders_in_text_and_html(neural_server):
    status, _, body = call(neural_server, "POST", "/v2/glossaries", json.dumps({
        "name": "t", "source_lang": "en", "target_lang": "de", "entries": "house\tHaus\ngarden\tGarten", "entries_format": "tsv"}).encode(), AUTH)
    assert status == 201, body
    glossary = json.loads(body)["glossary_id"]
    text = deepl(neural_server, {"text": ["The house has a garden, {count} rooms and %1$d doors."], "source_lang": "EN",
                                 "target_lang": "DE", "glossary_id": glossary})
    for kept in ("Haus", "Garten", "{count}", "%1$d"):
        assert kept in text, text
    assert text.index("Haus") < text.index("Garten") < text.index("{count}") < text.index("%1$d"), text
    html = deepl(neural_server, {"text": [HTML], "source_lang": "EN", "target_lang": "DE", "tag_handling": "html", "glossary_id": glossary})
    assert tags(html) == tags(HTML) and "Haus" in html and "Garten" in html, html


def test_google_v2_html_by_default(neural_server):
    status, _, body = call(neural_server, "POST", "/language/translate/v2",
                           json.dumps({"q": ["<p>Good <i>morning</i></p>"], "source": "en", "target": "de"}).encode(),
                           {"Content-Type": "application/json"})
    assert status == 200, body
    out = json.loads(body)["data"]["translations"][0]["translatedText"]
    assert tags(out) == ["<p>", "<i>", "</i>", "</p>"], out


def test_a_route_across_engines_and_a_model_given_back_when_idle(argos_package, tmp_path):  # noqa: F811
    """Spanish → German goes through Apertium (es→en) and the model (en→de); the model loads on
    first use and is given back after GLOSSA_NEURAL_IDLE_UNLOAD seconds without use."""
    installed = subprocess.run([glossa_binary(), "models", "install", str(argos_package)], capture_output=True, text=True,
                               timeout=300, env={"XDG_DATA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert installed.returncode == 0, installed.stderr
    s = Server(glossa_binary(), env_extra={"XDG_DATA_HOME": str(tmp_path), "GLOSSA_NEURAL_IDLE_UNLOAD": "1"})
    try:
        def in_memory():
            _, _, body = call(s, "GET", "/glossa/v1/health")
            return next(e for e in json.loads(body)["engines"] if e["engine"] == "neural")["inMemory"]

        assert in_memory() == []
        _, _, body = call(s, "GET", "/glossa/v1/pairs")
        assert {"source": "es", "target": "de", "path": ["es", "en", "de"]} in json.loads(body)["pairs"]
        status, _, body = call(s, "POST", "/glossa/v1/translate/stream",
                               json.dumps({"q": ["La casa es grande."], "source": "es", "target": "de"}).encode(),
                               {"Content-Type": "application/json"})
        assert status == 200 and json.loads(body.decode().splitlines()[0])["translatedText"], body
        assert in_memory() == ["en-de"]
        import time
        deadline = time.monotonic() + 15
        while in_memory() and time.monotonic() < deadline:
            time.sleep(0.3)
        assert in_memory() == [], "the idle model was not given back"
        # And it loads again when asked for.
        status, _, _ = call(s, "POST", "/language/translate/v2", json.dumps({"q": ["Hello"], "source": "en", "target": "de"}).encode(),
                            {"Content-Type": "application/json"})
        assert status == 200 and in_memory() == ["en-de"]
    finally:
        assert s.stop() == 0
