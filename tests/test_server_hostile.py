"""A live `glossa serve` under hostile clients and at shutdown, on 127.0.0.1 only, bounded.

- Shutdown under load, ten times in a row: exit 0 within the documented deadline (the drain time
  plus 10 s), every request that reached the server answered (200, or 503 in its protocol's
  envelope), no child process left.
- Clients that hang up cost no engine work: the pipelines' CPU time stops growing.
- Raw bytes: invalid UTF-8 in the query gets the protocol's 400; HEAD carries GET's length.
"""
import http.client
import json
import os
import signal
import socket
import threading
import time

import pytest

from glossa_server import Server, glossa_binary, require_serve
from process_table import live_processes

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
DRAIN_SECONDS = 1
# glossa serve --help: "From the signal to the exit takes at most the drain time plus 10 seconds."
SHUTDOWN_DEADLINE = DRAIN_SECONDS + 10
WORDS = ("the house is big and the cat sleeps on the red chair while my friend reads a long book "
         "about old cities and the weather is very nice today").split()


def big_text(size: int, seed: int = 0) -> str:
    """About `size` bytes of English sentences (deterministic)."""
    out, i, total = [], seed, 0
    while total < size:
        out.append(" ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(14)) + ". ")
        total += len(out[-1])
        i += 1
    return "".join(out)


def children(pid: int) -> set[int]:
    """Every live descendant of `pid` (from /proc), zombies excluded."""
    parents = {p.pid: p.parent for p in live_processes()}
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def cpu_seconds(pids: set[int]) -> float:
    """User plus system CPU time of the live processes among `pids`."""
    total = 0.0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def cpu_by_pid(pids: set[int]) -> dict[int, float]:
    """User plus system CPU time of each live process among `pids`."""
    return {pid: cpu_seconds({pid}) for pid in pids if os.path.exists(f"/proc/{pid}")}


def post_translation(port: int, text: str, results: list, index: int):
    """One Google v2 POST on a fresh connection; records (status, body) or the exception."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/language/translate/v2", body=json.dumps({"q": text, "source": "en", "target": "es"}),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        results[index] = (response.status, response.read())
        conn.close()
    except Exception as error:  # noqa: BLE001 - the test reports what happened
        results[index] = error


class KeepAliveClient(threading.Thread):
    """Short translations back to back on keep-alive raw sockets until refused. A request sent on
    a connection the server had accepted and served must get an answer; a fresh connection the
    server refuses (it no longer accepts) is not a lost request."""

    REQUEST = ("GET /language/translate/v2?q=Good+morning&source=en&target=es HTTP/1.1\r\n"
               "Host: 127.0.0.1\r\n\r\n").encode()

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port, self.answered, self.lost, self.stop = port, 0, [], False

    def run(self):
        sock, served = None, 0
        while not self.stop:
            try:
                if sock is None:
                    served = 0
                    sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
                sock.sendall(self.REQUEST)
                head, body = read_response(sock)
            except OSError as error:
                if served > 0:
                    self.lost.append(f"{type(error).__name__} after {served} answers on the connection")
                return
            if head is None:
                if served > 0:
                    self.lost.append(f"closed without an answer after {served} answers on the connection")
                return
            self.answered += 1
            served += 1
            if b"connection: close" in head.lower():
                sock.close()
                sock = None


def read_response(sock: socket.socket) -> tuple[bytes | None, bytes]:
    """Reads one Content-Length response; (None, b"") when the connection ends first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return None, b""
        rest += chunk
    return head, rest[:length]


@pytest.fixture(scope="module")
def binary():
    path = glossa_binary()
    require_serve(path)
    return path


@pytest.mark.parametrize("round_number", range(10))
def test_shutdown_under_load(binary, round_number):
    began = time.monotonic()
    server = Server(binary, "--drain-seconds", str(DRAIN_SECONDS))
    print(f"round {round_number}: started in {time.monotonic() - began:.1f} s")
    big = [None] * 6
    posts = [threading.Thread(target=post_translation, args=(server.port, big_text(900_000, i), big, i), daemon=True)
             for i in range(len(big))]
    loopers = [KeepAliveClient(server.port) for _ in range(8)]
    for thread in posts + loopers:
        thread.start()
    time.sleep(1.5)
    descendants = children(server.proc.pid)
    assert descendants, "the server runs its Apertium pipelines as child processes"
    start = time.monotonic()
    os.kill(server.proc.pid, signal.SIGTERM)
    status = server.proc.wait(timeout=60)
    elapsed = time.monotonic() - start
    print(f"round {round_number}: stopped {elapsed:.1f} s after SIGTERM")
    for thread in posts + loopers:
        thread.join(timeout=30)
    print(f"round {round_number}: clients done {time.monotonic() - start:.1f} s after SIGTERM")
    assert status == 0, f"round {round_number}: exit {status}"
    # On a machine loaded past its cores (other builds), every stage's timer runs late by about
    # the overload factor: the documented bound is stretched by it, capped at 10 (a shutdown
    # that hangs still fails: proc.wait gives up after 60 s). On an unloaded machine (CI) the
    # factor is 1 and the bound is the documented one.
    slack = min(10.0, max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1)))
    assert elapsed <= SHUTDOWN_DEADLINE * slack, \
        f"round {round_number}: {elapsed:.1f} s from SIGTERM to exit (load {os.getloadavg()[0]:.1f})"
    for i, result in enumerate(big):
        assert isinstance(result, tuple), f"round {round_number}: POST {i} got no answer: {result!r}"
        code, body = result
        assert code in (200, 503), (code, body[:200])
        if code == 503:
            assert json.loads(body)["error"]["code"] == 503, body[:300]
    for looper in loopers:
        assert looper.lost == [], f"round {round_number}: {looper.lost}"
    assert sum(looper.answered for looper in loopers) > 0
    # Stages exit on SIGTERM; give the kernel a moment to reap the last ones.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(os.path.exists(f"/proc/{pid}") and
                                              "Z" not in open_stat_state(pid) for pid in descendants):
        time.sleep(0.1)
    left = [pid for pid in descendants if os.path.exists(f"/proc/{pid}") and "Z" not in open_stat_state(pid)]
    assert left == [], f"round {round_number}: child processes left: {left}"


def open_stat_state(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_clients_that_hang_up_cost_no_engine_work(binary):
    server = Server(binary)
    try:
        sockets = []
        for i in range(4):
            body = json.dumps({"q": big_text(900_000, 100 + i), "source": "en", "target": "es"}).encode()
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.sendall(b"POST /language/translate/v2 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            sockets.append(sock)
        # Wait until the pipelines are visibly at work on them (so the test shows work stopping).
        idle, began = cpu_seconds(children(server.proc.pid)), time.monotonic()
        deadline = began + 60
        while (busy := cpu_seconds(children(server.proc.pid)) - idle) < 1.0:
            assert time.monotonic() < deadline, "the pipelines never started on the requests"
            time.sleep(0.2)
        # CPU s per second while working: "quiet" is relative to it, since a loaded machine gives
        # a working pipeline less of a core.
        busy_rate = busy / (time.monotonic() - began)
        at_hang_up = cpu_by_pid(children(server.proc.pid))
        for sock in sockets:
            sock.close()
        # Four ~1 MB translations take tens of CPU seconds (about 40 before this was fixed). Once
        # the clients have gone the pipelines must fall quiet having used only a little more: what
        # ran until the hang-up was seen, and fresh pipelines warming up. Counted in CPU seconds,
        # not wall time, so a loaded machine (which slows both) does not change the verdict.
        seen = dict(at_hang_up)
        quiet_seconds, deadline = 0, time.monotonic() + 90
        while time.monotonic() < deadline and quiet_seconds < 3:
            time.sleep(1)
            now = cpu_by_pid(children(server.proc.pid))
            grew = sum(max(0.0, value - seen.get(pid, 0.0)) for pid, value in now.items())
            seen.update({pid: max(value, seen.get(pid, 0.0)) for pid, value in now.items()})
            quiet_seconds = quiet_seconds + 1 if grew < max(0.03, 0.1 * busy_rate) else 0
        used = sum(value - at_hang_up.get(pid, 0.0) for pid, value in seen.items())
        assert quiet_seconds >= 3, f"the pipelines kept working after every client hung up ({used:.1f} CPU s)"
        assert used < 8.0, f"the pipelines used {used:.1f} CPU s after every client hung up"
        # The server still serves (the stopped pipelines were replaced).
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        conn.request("GET", "/language/translate/v2?q=Good+morning&source=en&target=es")
        response = conn.getresponse()
        assert response.status == 200 and "Buenos" in response.read().decode()
    finally:
        assert server.stop() == 0


def raw(port: int, data: bytes) -> tuple[bytes | None, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        return read_response(sock)


@pytest.fixture(scope="module")
def live(binary):
    server = Server(binary)
    yield server
    assert server.stop() == 0


@pytest.mark.parametrize("path,code", [
    ("/language/translate/v2?target=es&q=caf", lambda body: body["error"]["code"]),  # Google v2
    ("/translate?langpair=en|es&q=caf", lambda body: body["status"] == "error" and body["code"]),  # APy
])
def test_raw_invalid_utf8_in_the_query_gets_the_protocols_400(live, path, code):
    head, body = raw(live.port, b"GET " + path.encode() + b"\xe9\xff HTTP/1.1\r\nHost: a\r\n\r\n")
    assert head is not None and head.split(b" ")[1] == b"400", head
    assert code(json.loads(body)) == 400, body
    assert b"\xef\xbf\xbd" not in body, "the invalid bytes were replaced with U+FFFD"


def test_head_carries_the_length_get_would(live):
    get_head, get_body = raw(live.port, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as sock:
        sock.sendall(b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n")
        data = b""
        while b"\r\n\r\n" not in data:
            data += sock.recv(65536)
        head = data.split(b"\r\n\r\n", 1)[0].lower()
    assert get_body and f"content-length: {len(get_body)}".encode() in head, head


@pytest.mark.parametrize("request_line,envelope", [
    (b"CONNECT example.com:443 HTTP/1.1", None),  # no protocol serves that target: plain text
    (b"CONNECT /language/translate/v2 HTTP/1.1", "google"),
    # AJAX v1 answers its errors with HTTP 200; CONNECT must never get a 2xx (a "tunnel").
    (b"CONNECT /ajax/services/language/translate HTTP/1.1", "ajax"),
    (b"CONNECT /v3/projects/p/locations/global:translateText HTTP/1.1", "google_v3"),
    (b"TRACE /language/translate/v2 HTTP/1.1", "google"),
    (b"TRACE /v2/translate HTTP/1.1", "deepl"),
])
def test_connect_and_trace_are_refused_in_the_protocols_envelope(live, request_line, envelope):
    head, body = raw(live.port, request_line + b"\r\nHost: example.com:443\r\n\r\n")
    assert head is not None and head.split(b" ")[1] == b"405", head
    assert b"allow: get, post" in head.lower()
    if envelope == "google":
        assert json.loads(body)["error"]["code"] == 405
    elif envelope == "deepl":
        assert "message" in json.loads(body)
    elif envelope == "ajax":
        assert json.loads(body)["responseStatus"] == 405
    elif envelope == "google_v3":
        assert json.loads(body)["error"]["code"] == 405


def test_invalid_utf8_in_a_header_gets_the_protocols_400(live):
    head, body = raw(live.port, b"GET /language/translate/v2?q=hi&target=es HTTP/1.1\r\nHost: a\r\n"
                                b"X-Goog-Api-Key: k\xff\xfe\r\n\r\n")
    assert head is not None and head.split(b" ")[1] == b"400", head
    error = json.loads(body)["error"]
    assert error["code"] == 400 and "X-Goog-Api-Key" in error["message"], error
