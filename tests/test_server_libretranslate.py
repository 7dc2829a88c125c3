"""LibreTranslate as its real clients speak it, against a live `glossa serve` with the real
Apertium pairs: libretranslatepy (form bodies; GET /languages with a form body),
deep-translator's LibreTranslator (POST with the query string only, an empty body), and the JSON
batch and detection shapes LibreTranslate's documentation shows, sent with Python's http.client."""
import json
import urllib.error

import pytest
from deep_translator import LibreTranslator
from deep_translator.exceptions import ServerException
from libretranslatepy import LibreTranslateAPI

from glossa_server import call, server  # noqa: F401  (the fixture)



@pytest.fixture(scope="module")
def lt(server):
    return LibreTranslateAPI(server.url)


def test_libretranslatepy_translates(lt):
    assert lt.translate("The cat is black.", "en", "es") == "El gato es negro."
    assert lt.translate("Good morning", source="en", target="ca") == "Bon dia"


def test_libretranslatepy_detects_and_lists_languages(lt):
    detected = lt.detect("El tiempo es muy bueno hoy y vamos a la playa.")
    assert detected[0]["language"] == "es"
    assert 50 <= detected[0]["confidence"] <= 100
    languages = {entry["code"]: entry for entry in lt.languages()}
    assert languages["en"]["name"] == "English"
    assert {"es", "ca"} <= set(languages["en"]["targets"])
    assert "en" in languages["es"]["targets"]


def test_libretranslatepy_sees_libretranslates_errors(lt):
    with pytest.raises(urllib.error.HTTPError) as failure:
        lt.translate("Hello", "en", "zz")
    assert failure.value.code == 400
    assert json.loads(failure.value.read()) == {"error": "zz is not supported"}


def test_deep_translator_posts_the_query_string_only(server):
    translator = LibreTranslator(source="en", target="es", api_key="any-key", custom_url=server.url + "/")
    assert translator.translate("The cat is black.") == "El gato es negro."
    assert translator.translate_batch(["Good morning", "The cat is black."]) == ["Buenos días", "El gato es negro."]
    with pytest.raises(ServerException):
        LibreTranslator(source="en", target="ja", api_key="k", custom_url=server.url + "/").translate("Hello")


def test_json_batch_with_auto_detection_per_text(server):
    body = json.dumps({"q": ["The cat is black.", "El gato es negro."], "source": "auto", "target": "ca"})
    status, headers, data = call(server, "POST", "/translate", body, {"Content-Type": "application/json"})
    assert status == 200 and headers["Content-Type"] == "application/json"
    answer = json.loads(data)
    assert answer["translatedText"] == ["El gat és negre.", "El gat és negre."]
    # One detection per text (LibreTranslate itself repeats one for the whole batch, its #779).
    assert [d["language"] for d in answer["detectedLanguage"]] == ["en", "es"]
    assert all(0 < d["confidence"] <= 100 for d in answer["detectedLanguage"])


def test_html_keeps_markup_and_bytes_are_flasks(server):
    body = "q=%3Cb%3EThe+cat%3C%2Fb%3E+is+black.&source=en&target=es&format=html"
    status, _, data = call(server, "POST", "/translate", body, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 200
    assert data == '{"translatedText":"<b>El gato</b> es negro."}\n'.encode()


def test_detect_a_batch_answers_one_list_per_text(server):
    body = json.dumps({"q": ["The weather is very nice today and we are going to the beach.",
                             "El tiempo es muy bueno hoy y vamos a la playa."]})
    status, _, data = call(server, "POST", "/detect", body, {"Content-Type": "application/json"})
    lists = json.loads(data)
    assert status == 200 and len(lists) == 2
    assert [candidates[0]["language"] for candidates in lists] == ["en", "es"]


def test_wrong_methods_and_bad_input_stay_in_libretranslates_envelope(server):
    for method, path in [("GET", "/detect"), ("POST", "/languages"), ("POST", "/spec")]:
        status, _, data = call(server, method, path)
        assert status == 405 and json.loads(data) == {"error": "The method is not allowed for the requested URL."}
    status, _, data = call(server, "POST", "/translate", b'{"q": ["a"', {"Content-Type": "application/json"})
    assert status == 400 and json.loads(data)["error"].startswith("Failed to decode JSON object")
    status, _, data = call(server, "POST", "/translate", b"q=%FF&source=en&target=es", {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 400 and "UTF-8" in json.loads(data)["error"]
    status, _, data = call(server, "GET", "/frontend/settings")
    assert status == 200 and json.loads(data)["language"]["source"] == {"code": "auto", "name": "Auto Detect"}
    status, _, data = call(server, "GET", "/spec")
    assert status == 200 and json.loads(data)["swagger"] == "2.0"
