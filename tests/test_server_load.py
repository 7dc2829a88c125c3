"""Bounded load test on loopback: 64 keep-alive connections mix every endpoint for 30 s (set
GLOSSA_LOAD_SECONDS to change), each thread stopping after at most 5,000 requests. Every answer
must equal the one the server gave to the same request when idle: zero errors, zero hung requests."""
import http.client
import json
import os
import threading
import time
import urllib.parse

from glossa_server import server  # noqa: F401  (the fixture)

CONNECTIONS = 64
SECONDS = float(os.environ.get("GLOSSA_LOAD_SECONDS", "30"))
MAX_REQUESTS_PER_CONNECTION = 5000
REQUEST_TIMEOUT = 30

JSON_HEADERS = {"Content-Type": "application/json"}
FORM_HEADERS = {"Content-Type": "application/x-www-form-urlencoded"}
SENTENCES = ["Good morning", "The cat is black.", "I would like to buy a ticket to Madrid.",
             "The weather is very nice today.", "Where is the train station?"]

# (method, path, body, headers); mixes every protocol and encoding.
REQUESTS = [
    ("POST", "/language/translate/v2?prettyPrint=false",
     json.dumps({"q": SENTENCES, "target": "es", "source": "en", "format": "text"}), JSON_HEADERS),
    ("GET", "/language/translate/v2?" + urllib.parse.urlencode({"q": SENTENCES[1], "target": "es", "source": "en"}), None, {}),
    ("POST", "/language/translate/v2/detect", json.dumps({"q": SENTENCES[:2]}), JSON_HEADERS),
    ("GET", "/language/translate/v2/languages?target=es", None, {}),
    ("GET", "/translate?" + urllib.parse.urlencode({"langpair": "eng|spa", "q": SENTENCES[2]}), None, {}),
    ("POST", "/translate", urllib.parse.urlencode({"langpair": "en|es", "q": SENTENCES[3]}), FORM_HEADERS),
    ("GET", "/ajax/services/language/translate?" + urllib.parse.urlencode({"v": "1.0", "q": SENTENCES[4], "langpair": "en|es"}), None, {}),
    ("GET", "/listPairs", None, {}),
    ("GET", "/language/translate/v2?q=hi&target=xx", None, {}),  # an error answer is an answer too
]


def send(conn, request):
    method, path, body, headers = request
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def test_64_connections_mixed_endpoints(server):
    reference = []
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=REQUEST_TIMEOUT)
    for request in REQUESTS:
        reference.append(send(conn, request))
    conn.close()
    assert reference[0][0] == 200 and reference[-1][0] == 400

    deadline = time.monotonic() + SECONDS
    lock = threading.Lock()
    failures: list[str] = []
    counts = [0] * CONNECTIONS

    def worker(index: int):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=REQUEST_TIMEOUT)
        i = index
        try:
            while time.monotonic() < deadline and counts[index] < MAX_REQUESTS_PER_CONNECTION:
                k = i % len(REQUESTS)
                i += 1
                try:
                    answer = send(conn, REQUESTS[k])
                except Exception as error:  # a timeout here is a hung request
                    with lock:
                        failures.append(f"connection {index}, request {k}: {type(error).__name__}: {error}")
                    return
                counts[index] += 1
                if answer != reference[k]:
                    with lock:
                        failures.append(f"connection {index}, request {k}: {answer[0]} {answer[1][:200]!r}")
                    return
        finally:
            conn.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(CONNECTIONS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(SECONDS + REQUEST_TIMEOUT + 30)
    assert not any(t.is_alive() for t in threads), "a connection hung past its deadline"
    assert failures == []
    total = sum(counts)
    print(f"\nload: {total} requests over {CONNECTIONS} connections in {SECONDS:.0f} s ({total / SECONDS:.0f}/s)")
    assert all(c > 0 for c in counts), "every connection was served"
