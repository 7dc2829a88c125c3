"""The AJAX v1 / APy formats, health, metrics and bad input against a live `glossa serve` with the
real Apertium eng-spa pair, compared byte for byte where the format is fixed."""
import json
import socket
import urllib.parse

import pytest

from glossa_server import call, server  # noqa: F401  (the fixture)


def test_apy_translate_exact(server):
    status, headers, body = call(server, "GET", "/translate?" + urllib.parse.urlencode({"langpair": "eng|spa", "q": "The cat is black."}))
    assert status == 200
    assert headers["Content-Type"] == "application/json; charset=UTF-8"
    assert body.decode() == '{"responseData":{"translatedText":"El gato es negro."},"responseDetails":null,"responseStatus":200}'


def test_apy_two_letter_codes_form_post_and_jsonp(server):
    form = urllib.parse.urlencode({"langpair": "en|es", "q": "Good morning", "callback": "cb"})
    status, headers, body = call(server, "POST", "/translate", form, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 200
    assert body.decode() == 'cb({"responseData":{"translatedText":"Buenos días"},"responseDetails":null,"responseStatus":200})'


def test_apy_list_pairs_contains_installed_pair(server):
    status, _, body = call(server, "GET", "/listPairs")
    pairs = json.loads(body)["responseData"]
    assert {"sourceLanguage": "eng", "targetLanguage": "spa"} in pairs


def test_apy_errors(server):
    status, _, body = call(server, "GET", "/translate?langpair=eng|spa")
    assert status == 400
    assert json.loads(body) == {"status": "error", "code": 400, "message": "Bad Request", "explanation": "Missing argument q"}
    status, _, body = call(server, "GET", "/translate?langpair=eng|jpn&q=hi")
    assert status == 400 and json.loads(body)["explanation"].startswith("That pair is not installed")


def test_ajax_translate_and_detect_on_empty_source(server):
    status, _, body = call(server, "GET", "/ajax/services/language/translate?v=1.0&q=The+cat+is+black.&langpair=%7Ces&format=text")
    assert status == 200
    assert json.loads(body) == {"responseData": {"translatedText": "El gato es negro.", "detectedSourceLanguage": "en"},
                                "responseDetails": None, "responseStatus": 200}


def test_ajax_error_is_http_200_with_status_inside(server):
    status, _, body = call(server, "GET", "/ajax/services/language/translate?v=1.0&q=hi&langpair=en%7Cxx")
    assert status == 200
    answer = json.loads(body)
    assert answer["responseStatus"] == 400 and answer["responseData"] is None and "xx" in answer["responseDetails"]


def test_health_is_libretranslates_and_its_details_list_loaded_pairs(server):
    # LibreTranslate's own test_api_health compares the whole body.
    status, _, body = call(server, "GET", "/health")
    assert status == 200 and json.loads(body) == {"status": "ok"}
    status, _, body = call(server, "GET", "/glossa/v1/health")
    health = json.loads(body)
    assert status == 200 and health["status"] == "ok"
    apertium = next(e for e in health["engines"] if e["engine"] == "apertium")
    assert "eng-spa" in apertium["loaded"]


def test_metrics_count_this_session(server):
    call(server, "GET", "/language/translate/v2?q=Good+morning&target=es&source=en")
    status, headers, body = call(server, "GET", "/metrics")
    text = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
    assert 'glossa_http_requests_total{endpoint="google_v2_translate",code="200"}' in text
    assert 'glossa_characters_translated_total{endpoint="google_v2_translate"}' in text


def test_openapi_covers_every_endpoint(server):
    status, _, body = call(server, "GET", "/openapi.json")
    paths = json.loads(body)["paths"]
    for path in ["/language/translate/v2", "/language/translate/v2/detect", "/language/translate/v2/languages",
                 "/ajax/services/language/translate", "/translate", "/listPairs", "/identifyLang",
                 "/health", "/glossa/v1/health", "/metrics", "/openapi.json"]:
        assert path in paths


def read_413(sock) -> dict:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, rest = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), head
    length = int([l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
    while len(rest) < length:
        rest += sock.recv(65536)
    return json.loads(rest)


@pytest.mark.parametrize("head", [
    # A client that waits for 100 Continue is answered before it sends any of the body.
    b"Content-Length: 50000000\r\nExpect: 100-continue\r\n",
    # So is one declaring more than the server would read and drop for a polite answer (the
    # limit plus 64 MiB); a smaller oversize body that is sent is read to its end first
    # (Tests/HTTPServerTests, tests/test_cluster.py through nginx).
    b"Content-Length: 100000000\r\n",
])
def test_oversize_body_refused_before_it_is_sent(server, head):
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"POST /language/translate/v2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + head + b"\r\n")
        assert read_413(sock)["error"]["code"] == 413


def test_oversize_body_on_its_way_is_read_then_refused_in_the_envelope(server):
    body = b"x" * (3 << 20)
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"POST /language/translate/v2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
        assert read_413(sock)["error"]["code"] == 413


def test_bad_input_gets_the_protocol_envelope(server):
    status, _, body = call(server, "POST", "/language/translate/v2", b'{"q": ["a"', {"Content-Type": "application/json"})
    assert status == 400 and json.loads(body)["error"]["errors"][0]["reason"] == "parseError"
    status, _, body = call(server, "GET", "/language/translate/v2?q=%FF%FE&target=es")
    assert status == 400 and "UTF-8" in json.loads(body)["error"]["message"]
    status, _, body = call(server, "GET", "/language/translate/v2?target=es&" + "&".join(["q=a"] * 129))
    assert status == 400 and json.loads(body)["error"]["message"].startswith("Too many text segments")
    status, _, body = call(server, "POST", "/language/translate/v2", b"q=%E0%A4&target=es", {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 400
