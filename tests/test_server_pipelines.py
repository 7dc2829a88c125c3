"""`GLOSSA_PIPELINES` sets how many Apertium pipelines one pair may run at once in `glossa serve`:
under concurrent requests of one pair the server runs exactly that many (each pipeline is one
`bash` running the mode's stages, a child of glossa), and every request is still answered.
(A pair's requests with and without unknown-word marks run in two pools, each with that many.)"""
import concurrent.futures
import http.client
import json
import os
import re
import subprocess
import threading
import time
import urllib.parse

import pytest

from conftest import SHARED
from process_table import command_line, live_processes

FLORES = SHARED / "data" / "flores200-dev" / "eng_Latn.dev"


def pipeline_pids(pid: int, pair: str) -> set[int]:
    """The PIDs of glossa's live `bash` children running `pair`'s stages: one per pipeline of
    that pair (other pairs' pipelines, such as the start-up probes', are not counted)."""
    return {p.pid for p in live_processes()
            if p.parent == pid and p.name == "bash" and f"/apertium-{pair}/" in command_line(p.pid)}


def pipeline_count(pid: int, pair: str) -> int:
    """How many pipelines of `pair` glossa runs now."""
    return len(pipeline_pids(pid, pair))


@pytest.mark.skipif(not FLORES.exists(), reason="needs ../shared/data/flores200-dev (FLORES-200 dev) beside the repository")
@pytest.mark.parametrize("pipelines", [1, 2])
def test_glossa_pipelines_is_how_many_pipelines_a_pair_runs(glossa_bin, pipelines):
    sentences = [line.strip() for line in FLORES.read_text().splitlines() if line.strip()]
    paragraphs = [" ".join(sentences[i:i + 8]) for i in range(0, 8 * 24, 8)]
    env = {**os.environ, "LC_ALL": "C.UTF-8", "GLOSSA_PIPELINES": str(pipelines), "GLOSSA_PREWARM": "eng-spa"}
    proc = subprocess.Popen([glossa_bin, "serve", "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)", proc.stdout.readline()).group(1))
        threading.Thread(target=proc.stdout.read, daemon=True).start()

        def translate(text: str) -> str:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            # Google v2, which never marks unknown words: one pool (APy's markUnknown=yes would be
            # another pool of the same pair, with pipelines of its own).
            connection.request("GET", "/language/translate/v2?" + urllib.parse.urlencode(
                {"q": text, "source": "en", "target": "es", "format": "text"}))
            body = json.loads(connection.getresponse().read())
            connection.close()
            return body["data"]["translations"][0]["translatedText"]

        seen, busy = set(), threading.Event()

        def watch():
            while not busy.is_set():
                seen.add(pipeline_count(proc.pid, "eng-spa"))
                time.sleep(0.005)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(translate, paragraphs))
        finally:
            busy.set()
            watcher.join()
        assert all(answers), "every request is answered"
        assert max(seen) == pipelines, f"pipelines seen: {sorted(seen)}"
    finally:
        proc.terminate()
        proc.wait(timeout=60)


@pytest.mark.skipif(not FLORES.exists(), reason="needs ../shared/data/flores200-dev (FLORES-200 dev) beside the repository")
def test_clients_that_hang_up_on_short_requests_leave_the_warm_pipelines_in_place(glossa_bin):
    """A client that hangs up while its paragraph is being translated (a timeout, a closed tab)
    costs no pipeline restart: the short request finishes for nobody and the same warm pipelines
    answer the next clients, exactly as before."""
    sentences = [line.strip() for line in FLORES.read_text().splitlines() if line.strip()]
    paragraph = " ".join(sentences[:80])  # about 10 KB: under the 16 KB that are left to finish
    # The translation cache off: the same paragraph must reach the pipelines every time.
    env = {**os.environ, "LC_ALL": "C.UTF-8", "GLOSSA_PIPELINES": "2", "GLOSSA_PREWARM": "eng-spa",
           "GLOSSA_TRANSLATION_CACHE_MB": "0"}
    proc = subprocess.Popen([glossa_bin, "serve", "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)", proc.stdout.readline()).group(1))
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        path = "/language/translate/v2?" + urllib.parse.urlencode(
            {"q": paragraph, "source": "en", "target": "es", "format": "text"})

        def translate() -> str:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            connection.request("GET", path)
            body = json.loads(connection.getresponse().read())
            connection.close()
            return body["data"]["translations"][0]["translatedText"]

        # Both pipelines up and warm (two at once use both), and the answer to compare with.
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            reference = list(pool.map(lambda _: translate(), range(2)))[0]
        warm = pipeline_pids(proc.pid, "eng-spa")
        assert len(warm) == 2, f"pipelines: {warm}"
        hung_up = 0
        for _ in range(10):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=0.02)
            connection.request("GET", path)
            try:
                connection.getresponse().read()  # answered within 20 ms: this machine is fast
            except TimeoutError:
                hung_up += 1
            connection.close()
        assert hung_up > 0, "no request was still running 20 ms after it was sent"
        assert translate() == reference
        assert pipeline_pids(proc.pid, "eng-spa") == warm, "a hang-up restarted a pipeline"
    finally:
        proc.terminate()
        proc.wait(timeout=60)
