"""Everyday texts with the source left to detection, in every protocol, as real clients send them:
HTML fragments, "Hi", digits, an emoji, a URL and ordinary sentences in one batch. Each answers
200 with one translation per item, none empty, and each item's source in the protocol's own way
(Google, AJAX, APy and the Glossa stream `und`; DeepL EN; LibreTranslate `en` at confidence 0)
for text with no language in it, which comes back unchanged. Real server on 127.0.0.1, real
Apertium pairs, real detector; the official clients google-cloud-translate, deepl and
libretranslatepy make the same calls."""
import json
import urllib.parse

import deepl
from google.auth.credentials import AnonymousCredentials
from google.cloud import translate_v2
from libretranslatepy import LibreTranslateAPI

from glossa_server import call, server  # noqa: F401  (the fixture)

HTML = "<p>The <b>red</b> house</p>"
# (text, what its source is: a language, or None for text with no language in it)
MIXED = [
    (HTML, "en"),
    ("Hi", "en"),
    ("12345", None),
    ("🙂", None),
    ("https://example.com/page", None),
    ("The cat is black.", "en"),
    ("<p>¿Dónde está la <i>biblioteca</i>?</p>", "es"),
]
TEXTS = [text for text, _ in MIXED]


def check_translations(translations, sources, undetermined, format_html=True):
    """One non-empty translation per item; undetermined text unchanged; sources as expected."""
    assert len(translations) == len(MIXED)
    for (text, expected), translated, source in zip(MIXED, translations, sources):
        assert translated, f"{text!r} came back empty"
        if expected is None:
            assert translated == text and source == undetermined, (text, translated, source)
        else:
            assert source == expected, (text, source)
    assert translations[5] == "El gato es negro."
    if format_html:
        assert translations[0].startswith("<p>") and "casa" in translations[0] and "<b>" in translations[0]
        assert "<i>" in translations[6]


def test_google_v2_batch_html_by_default(server):
    status, _, body = call(server, "POST", "/language/translate/v2", json.dumps({"q": TEXTS, "target": "es"}).encode(),
                           {"Content-Type": "application/json"})
    assert status == 200, body
    items = json.loads(body)["data"]["translations"]
    check_translations([t["translatedText"] for t in items], [t["detectedSourceLanguage"] for t in items], "und")


def test_google_v2_get_with_markup_and_no_source(server):
    # The first example: GET, Google's default format (html), no source.
    q = urllib.parse.quote(HTML)
    status, _, body = call(server, "GET", f"/language/translate/v2?q={q}&target=es")
    assert status == 200, body
    item = json.loads(body)["data"]["translations"][0]
    assert item["detectedSourceLanguage"] == "en" and "casa" in item["translatedText"]


def test_google_client(server):
    client = translate_v2.Client(credentials=AnonymousCredentials(), client_options={"api_endpoint": server.url})
    results = client.translate(TEXTS, target_language="es")
    check_translations([r["translatedText"] for r in results], [r["detectedSourceLanguage"] for r in results], "und")


def test_deepl_batch_with_tag_handling(server):
    status, _, body = call(server, "POST", "/v2/translate",
                           json.dumps({"text": TEXTS, "target_lang": "ES", "tag_handling": "html"}).encode(),
                           {"Content-Type": "application/json", "Authorization": "DeepL-Auth-Key k"})
    assert status == 200, body
    items = json.loads(body)["translations"]
    check_translations([t["text"] for t in items], [t["detected_source_language"].lower() for t in items], "en")


def test_deepl_client_html_without_source(server):
    translator = deepl.Translator("glossa-test-key:fx", server_url=server.url)
    result = translator.translate_text(HTML, target_lang="ES", tag_handling="html")
    assert result.detected_source_lang == "EN"
    assert result.text.startswith("<p>") and result.text.endswith("</p>") and "casa" in result.text
    results = translator.translate_text(TEXTS, target_lang="ES", tag_handling="html")
    check_translations([r.text for r in results], [r.detected_source_lang.lower() for r in results], "en")


def test_libretranslate_batch_html_auto(server):
    status, _, body = call(server, "POST", "/translate",
                           json.dumps({"q": TEXTS, "source": "auto", "target": "es", "format": "html"}).encode(),
                           {"Content-Type": "application/json"})
    assert status == 200, body
    answer = json.loads(body)
    detected = answer["detectedLanguage"]
    for (text, expected), d in zip(MIXED, detected):
        if expected is None:
            assert d == {"confidence": 0.0, "language": "en"}, (text, d)
        else:
            assert d["language"] == expected and d["confidence"] > 0, (text, d)
    check_translations(answer["translatedText"], [d["language"] if d["confidence"] > 0 else "und" for d in detected], "und")


def test_libretranslatepy_client(server):
    client = LibreTranslateAPI(server.url + "/")
    translations = [client.translate(text, "auto", "es") for text in TEXTS]
    assert all(translations), translations
    assert translations[1] == "Hola" and translations[2] == "12345" and translations[5] == "El gato es negro."


def test_ajax_v1_batch(server):
    query = "&".join(f"q={urllib.parse.quote(t)}" for t in TEXTS)
    status, _, body = call(server, "GET", f"/ajax/services/language/translate?v=1.0&{query}&langpair=%7Ces")
    assert status == 200, body
    items = json.loads(body)["responseData"]
    assert all(item["responseStatus"] == 200 for item in items), items
    data = [item["responseData"] for item in items]
    check_translations([d["translatedText"] for d in data], [d["detectedSourceLanguage"] for d in data], "und")


def test_apy_translate_detects_per_text(server):
    for text, expected in MIXED:
        status, _, body = call(server, "GET", f"/translate?langpair=%7Cspa&format=html&q={urllib.parse.quote(text)}")
        assert status == 200, (text, body)
        data = json.loads(body)["responseData"]
        assert data["translatedText"], text
        assert data["detectedSourceLanguage"] == {"en": "eng", "es": "spa", None: "und"}[expected], (text, data)


def test_glossa_stream(server):
    status, _, body = call(server, "POST", "/glossa/v1/translate/stream",
                           json.dumps({"q": TEXTS, "target": "es", "format": "html"}).encode(),
                           {"Content-Type": "application/json"})
    assert status == 200, body
    lines = [json.loads(line) for line in body.decode().splitlines()]
    assert lines[-1]["done"] and lines[-1]["errors"] == 0, lines[-1]
    by_index = {line["index"]: line for line in lines[:-1]}
    check_translations([by_index[i]["translatedText"] for i in range(len(MIXED))],
                       [by_index[i]["detectedSourceLanguage"] for i in range(len(MIXED))], "und")


def test_cli_html_and_undetermined(run):
    out = run("translate", "--to", "es", "--format", "html", HTML)
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode().strip().startswith("<p>") and "casa" in out.stdout.decode()
    out = run("translate", "--to", "es", "--json", "12345")
    assert out.returncode == 0, out.stderr
    line = json.loads(out.stdout)
    assert line["translatedText"] == "12345" and line["source"] == "und"
