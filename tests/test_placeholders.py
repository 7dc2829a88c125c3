"""Placeholders survive in every protocol: 200 strings from the gettext catalogues Debian installs
(tests/placeholder_strings.py), covering `%s`, `{name}`, `{{count}}`, `%1$d`, `$var`,
`<x id="1"/>`, ICU plurals and XLIFF inline codes, translated en→es by the real Apertium pair
through Google v2 (text and its default html), Google v3, AJAX v1, APy, LibreTranslate, DeepL
(plain, and XML as Weblate sends it), the Glossa stream and the CLI: every placeholder comes back
byte for byte, as many times as it was sent, in its order."""
import json
import subprocess
import urllib.parse

import pytest

import placeholder_strings
from glossa_server import call, glossa_binary, server  # noqa: F401  (the fixture)

SUITE = placeholder_strings.suite()
TEXTS = [text for text, _ in SUITE]
pytestmark = pytest.mark.skipif(len(SUITE) < 200, reason=f"needs 200 catalogue strings under {placeholder_strings.LOCALE} (Debian packages' "
                                                         f"Spanish gettext catalogues), found {len(SUITE)}")


def check(translations: list[str], html: bool = False):
    assert len(translations) == len(SUITE)
    for (text, expected), translated in zip(SUITE, translations):
        if html:
            # Markup-escaped where the protocol reads the text as HTML: `&lt;` stays as sent.
            translated = translated.replace("&#39;", "'").replace("&quot;", '"')
        assert placeholder_strings.placeholders(translated) == expected, (text, translated)


def batches(size: int):
    for i in range(0, len(TEXTS), size):
        yield TEXTS[i:i + size]


def post_json(server, path, body, headers=None):
    status, _, answer = call(server, "POST", path, json.dumps(body).encode(), {"Content-Type": "application/json", **(headers or {})})
    assert status == 200, answer
    return json.loads(answer)


@pytest.mark.parametrize("fmt", ["text", "html"])
def test_google_v2(server, fmt):
    out = [t["translatedText"] for batch in batches(100)
           for t in post_json(server, "/language/translate/v2", {"q": batch, "source": "en", "target": "es", "format": fmt})["data"]["translations"]]
    check(out, html=fmt == "html")


def test_google_v3(server):
    out = [t["translatedText"] for batch in batches(100)
           for t in post_json(server, "/v3/projects/p:translateText", {"contents": batch, "sourceLanguageCode": "en",
                                                                       "targetLanguageCode": "es", "mimeType": "text/plain"})["translations"]]
    check(out)


def test_ajax_v1(server):
    out = []
    for batch in batches(20):
        query = "&".join(f"q={urllib.parse.quote(t)}" for t in batch)
        status, _, body = call(server, "GET", f"/ajax/services/language/translate?v=1.0&{query}&langpair=en%7Ces&format=text")
        assert status == 200, body
        out += [item["responseData"]["translatedText"] for item in json.loads(body)["responseData"]]
    check(out)


def test_apy(server):
    out = []
    for text in TEXTS:
        status, _, body = call(server, "GET", f"/translate?langpair=eng%7Cspa&q={urllib.parse.quote(text)}")
        assert status == 200, body
        out.append(json.loads(body)["responseData"]["translatedText"])
    check(out)


def test_libretranslate(server):
    out = [t for batch in batches(50)
           for t in post_json(server, "/translate", {"q": batch, "source": "en", "target": "es", "format": "text"})["translatedText"]]
    check(out)


@pytest.mark.parametrize("tags", [None, "xml"])
def test_deepl(server, tags):
    extra = {"tag_handling": "xml", "ignore_tags": ["x"]} if tags else {}
    out = [t["text"] for batch in batches(50)
           for t in post_json(server, "/v2/translate", {"text": batch, "source_lang": "EN", "target_lang": "ES", **extra},
                              {"Authorization": "DeepL-Auth-Key k"})["translations"]]
    check(out, html=tags is not None)


def test_glossa_stream(server):
    status, _, body = call(server, "POST", "/glossa/v1/translate/stream",
                           json.dumps({"q": TEXTS, "source": "en", "target": "es"}).encode(), {"Content-Type": "application/json"})
    assert status == 200, body
    lines = [json.loads(line) for line in body.decode().splitlines()]
    by_index = {line["index"]: line["translatedText"] for line in lines[:-1]}
    check([by_index[i] for i in range(len(TEXTS))])


def test_cli():
    out = subprocess.run([glossa_binary(), "translate", "--from", "en", "--to", "es"], input="\n".join(TEXTS) + "\n",
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    check(out.stdout.splitlines())
