"""`POST /glossa/v1/translate/stream` of a live `glossa serve` over the real Apertium pairs, read
with Python's own http.client (no Glossa code on the client side): chunked NDJSON, one line per
text, a terminal line, error lines, refusals in Google's envelope with Glossa's kind, and a client
that leaves early without harming the server."""
import http.client
import json

from glossa_server import server  # noqa: F401  (the fixture)

PATH = "/glossa/v1/translate/stream"


def post(srv, body, timeout=120):
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=timeout)
    conn.request("POST", PATH, body=json.dumps(body) if not isinstance(body, str) else body,
                 headers={"Content-Type": "application/json"})
    return conn, conn.getresponse()


def lines_of(response):
    return [json.loads(line) for line in response.read().decode().splitlines() if line.strip()]


def test_streams_one_line_per_text_then_a_terminal_line(server):
    texts = ["Good morning", "The house is big.", "I like coffee.", "Where is the library?"]
    conn, r = post(server, {"q": texts, "source": "en", "target": "es", "clientIdentifiers": ["a", "b", "c", "d"]})
    assert r.status == 200
    assert r.getheader("Transfer-Encoding") == "chunked"
    assert r.getheader("Content-Type").startswith("application/x-ndjson")
    lines = lines_of(r)
    conn.close()
    assert lines[-1] == {"done": True, "count": 4, "errors": 0}
    by_index = {line["index"]: line for line in lines[:-1]}
    assert sorted(by_index) == [0, 1, 2, 3]
    assert by_index[0]["translatedText"] == "Buenos días"
    assert by_index[0]["clientIdentifier"] == "a"
    assert by_index[0]["sourceLanguage"] == "en"
    assert "detectedSourceLanguage" not in by_index[0]
    assert "café" in by_index[2]["translatedText"]


def test_detects_each_source_and_reports_per_text_errors(server):
    conn, r = post(server, {"q": ["¿Dónde está la biblioteca?", "Bonjour tout le monde, comment allez-vous?", "こんにちは世界"],
                            "target": "en"})
    lines = lines_of(r)
    conn.close()
    by_index = {line["index"]: line for line in lines if "index" in line}
    assert by_index[0]["detectedSourceLanguage"] == "es"
    assert by_index[1]["detectedSourceLanguage"] == "fr"
    assert by_index[2]["error"]["reason"] in ("unsupportedSourceLanguage", "unsupportedPair")
    assert lines[-1]["done"] is True and lines[-1]["errors"] == 1


def test_refuses_a_bad_batch_in_googles_envelope_with_glossas_kind(server):
    conn, r = post(server, {"q": ["hello"], "target": "not-a-language"})
    body = json.loads(r.read())
    conn.close()
    assert r.status == 400
    assert body["error"]["errors"][0]["reason"] == "invalidLanguage"
    assert "not-a-language" in body["error"]["message"]


def test_a_client_that_leaves_early_does_not_harm_the_server(server):
    texts = [f"The house number {i} is big." for i in range(200)]
    conn, r = post(server, {"q": texts, "source": "en", "target": "es"})
    first = json.loads(r.readline())
    assert "translatedText" in first
    conn.close()  # leave with most of the batch untranslated
    conn, r = post(server, {"q": ["Good morning"], "source": "en", "target": "es"})
    lines = lines_of(r)
    conn.close()
    assert lines[0]["translatedText"] == "Buenos días"


def test_pairs_lists_direct_and_pivot_directions(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("GET", "/glossa/v1/pairs")
    pairs = json.loads(conn.getresponse().read())["pairs"]
    conn.close()
    assert {"source": "en", "target": "es", "path": ["en", "es"]} in pairs
    assert any(p["source"] == "en" and p["target"] == "pt" and len(p["path"]) == 3 for p in pairs)
