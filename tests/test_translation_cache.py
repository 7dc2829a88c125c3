"""The translation cache (GLOSSA_TRANSLATION_CACHE_MB, default 64) against a live `glossa serve`
with the real Apertium pairs: the same request twice gives byte-identical answers in every
protocol while the second is served from the cache (/metrics counts the hits), and with the
cache off every segment goes to the engine."""
import json
import re
import urllib.parse

from glossa_server import Server, call, glossa_binary, server  # noqa: F401  (the fixture)

TEXTS = ["Save changes", "Cancel", "The file could not be opened.", "Save changes"]


def requests():
    """One translation request per protocol, as its clients send it: (method, path, body, headers)."""
    q = "&".join(f"q={urllib.parse.quote(t)}" for t in TEXTS)
    json_headers = {"Content-Type": "application/json"}
    return [
        ("POST", "/language/translate/v2", json.dumps({"q": TEXTS, "source": "en", "target": "es", "format": "text"}).encode(), json_headers),
        ("POST", "/v3/projects/p/locations/global:translateText",
         json.dumps({"contents": TEXTS, "sourceLanguageCode": "en", "targetLanguageCode": "es"}).encode(), json_headers),
        ("POST", "/translate", json.dumps({"q": TEXTS, "source": "en", "target": "es"}).encode(), json_headers),
        ("POST", "/v2/translate", json.dumps({"text": TEXTS, "source_lang": "EN", "target_lang": "ES"}).encode(),
         {**json_headers, "Authorization": "DeepL-Auth-Key k"}),
        ("GET", f"/translate?langpair=eng%7Cspa&q={urllib.parse.quote(TEXTS[2])}", None, {}),
        ("GET", f"/ajax/services/language/translate?v=1.0&{q}&langpair=en%7Ces", None, {}),
        ("POST", "/glossa/v1/translate/stream", json.dumps({"q": TEXTS, "source": "en", "target": "es"}).encode(), json_headers),
    ]


def cache_counts(srv):
    status, _, body = call(srv, "GET", "/metrics")
    assert status == 200
    text = body.decode()
    return {name: int(re.search(rf"^glossa_translation_cache_{name} (\d+)$", text, re.M).group(1))
            for name in ["hits_total", "misses_total", "entries", "bytes", "capacity_bytes"]}


def stream_lines(body):
    """The stream's lines by index (their order follows completion, which may differ)."""
    return sorted(body.decode().splitlines())


def test_a_cached_answer_equals_a_fresh_one_in_every_protocol(server):
    before = cache_counts(server)
    assert before["capacity_bytes"] == 64 << 20
    for method, path, body, headers in requests():
        first = call(server, method, path, body, headers)
        second = call(server, method, path, body, headers)
        assert first[0] == second[0] == 200, (path, first[2])
        if "stream" in path:
            assert stream_lines(first[2]) == stream_lines(second[2])
        else:
            assert first[2] == second[2], path
    after = cache_counts(server)
    # Every protocol's second request (and the repeated "Save changes" within each) came from the cache.
    assert after["hits_total"] - before["hits_total"] >= len(requests())
    assert 0 < after["bytes"] <= after["capacity_bytes"]


def test_off_with_zero():
    s = Server(glossa_binary(), env_extra={"GLOSSA_TRANSLATION_CACHE_MB": "0"})
    try:
        method, path, body, headers = requests()[0]
        first, second = call(s, method, path, body, headers), call(s, method, path, body, headers)
        assert first[2] == second[2]
        counts = cache_counts(s)
        assert counts == {"hits_total": 0, "misses_total": 0, "entries": 0, "bytes": 0, "capacity_bytes": 0}
    finally:
        assert s.stop() == 0
