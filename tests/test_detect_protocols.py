"""The detector behind every protocol gives the same answer for the same text: Google v2 detect,
Google AJAX detect, APy identifyLang, LibreTranslate /detect (confidence 0-100), the CLI, and the
source detected by Google v2 and DeepL translate. Real server on 127.0.0.1, real detector
(Glossa's model + CLD2)."""
import json
import urllib.parse

import pytest

from glossa_server import server  # noqa: F401  (the module-scoped live server fixture)
from test_server_protocols import call

TEXTS = [
    "Hello there!!!",
    "The weather is lovely today and we are going to the beach.",
    "¿Dónde está la biblioteca?",
    "Bonjour tout le monde",
    "Guten Morgen",
    "Dziękuję bardzo",
    "kiitos",
    "Сегодня прекрасная погода",
    "今日はとても良い天気です",
    "https://example.com/path",
    "12345 67890",
    "if (x > 0) { return y; }",
]

# APy answers in ISO 639-3.
ISO639_3 = {"en": "eng", "es": "spa", "fr": "fra", "de": "deu", "pl": "pol", "fi": "fin", "ru": "rus", "ja": "jpn"}


def google_detect(server, texts):
    status, _, body = call(server, "POST", "/language/translate/v2/detect",
                           json.dumps({"q": texts}).encode(), {"Content-Type": "application/json"})
    assert status == 200, body
    return [d[0] for d in json.loads(body)["data"]["detections"]]


def test_every_protocol_gives_the_same_answer(server, run):
    google = google_detect(server, TEXTS)
    # LibreTranslate names only languages it can translate from (as LibreTranslate does): its
    # answer is the same detection's best candidate among those.
    status, _, body = call(server, "GET", "/languages")
    libre_sources = {entry["code"] for entry in json.loads(body)}
    cli = [json.loads(line) for line in run("detect", "--json", *TEXTS).stdout.decode().splitlines()]
    assert len(cli) == len(TEXTS)
    for text, g, c in zip(TEXTS, google, cli):
        q = urllib.parse.quote(text)
        status, _, body = call(server, "GET", f"/ajax/services/language/detect?v=1.0&q={q}")
        assert status == 200
        ajax = json.loads(body)["responseData"]
        assert (ajax["language"], ajax["isReliable"]) == (g["language"], g["isReliable"]), text
        assert ajax["confidence"] == pytest.approx(g["confidence"]), text
        status, _, body = call(server, "GET", f"/identifyLang?q={q}")
        apy = json.loads(body)
        status, _, body = call(server, "POST", "/detect", urllib.parse.urlencode({"q": text}).encode(),
                               {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 200, body
        libre = json.loads(body)[0]
        if g["language"] not in libre_sources:
            libre = None
        if g["language"] == "und":
            assert apy == {} and c["language"] == "und", text  # the CLI says und, as Google v2 and its --help do
            assert libre is None or libre["confidence"] == 0, text  # LibreTranslate's answer for "nothing found"
            continue
        best = max(apy, key=apy.get)
        assert best == ISO639_3.get(g["language"], best), text
        assert apy[best] == pytest.approx(g["confidence"]), text
        assert c["language"] == g["language"] and c["confidence"] == pytest.approx(g["confidence"]), text
        if libre is not None:
            assert libre["language"] == g["language"], text
            assert libre["confidence"] == pytest.approx(100 * g["confidence"], abs=0.51), text


def test_translate_without_source_uses_the_same_detection(server):
    text = "¿Dónde está la biblioteca?"
    google = google_detect(server, [text])[0]
    status, _, body = call(server, "POST", "/language/translate/v2",
                           json.dumps({"q": [text], "target": "en", "format": "text"}).encode(),
                           {"Content-Type": "application/json"})
    assert status == 200, body
    assert json.loads(body)["data"]["translations"][0]["detectedSourceLanguage"] == google["language"] == "es"
    status, _, body = call(server, "POST", "/v2/translate", urllib.parse.urlencode({"text": text, "target_lang": "EN"}).encode(),
                           {"Content-Type": "application/x-www-form-urlencoded", "Authorization": "DeepL-Auth-Key glossa-test-key:fx"})
    assert status == 200, body
    assert json.loads(body)["translations"][0]["detected_source_language"] == "ES"


def test_non_language_is_und_everywhere(server):
    for text in ["https://example.com/path", "12345 67890", "john.doe@example.com"]:
        assert google_detect(server, [text])[0]["language"] == "und", text
        status, _, body = call(server, "GET", f"/ajax/services/language/detect?v=1.0&q={urllib.parse.quote(text)}")
        assert json.loads(body)["responseData"]["language"] == "und", text
