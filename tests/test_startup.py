"""`glossa serve` keeps its start-up promise with many pairs: it listens at once and answers while
it checks the installed pairs in the background, says how far the check has got in
/glossa/v1/health, serves a pair not checked yet (checking it first), says `ready` when done, and
stops at once on SIGTERM even in the middle of the check.

100 synthetic Apertium modes (from and into English for fifty languages no installed pair
translates, so no Debian package shadows them) each take a second to start, beside the real Debian pairs; the probe cache is a new
file, so every pair is checked afresh."""
import json
import os
import signal
import subprocess
import time
import urllib.request

from glossa_server import Server, glossa_binary, require_serve

# Fifty languages no pair on the test machine translates (make test installs eng-spa, es-pt and
# the like), each with a pair from and into English, as Debian's pairs hang off a few hubs.
CODES = ("fin jpn kor tur hun est lav lit vie tha ind msa tgl swa zul xho amh ara heb hin ben urd fas pus kur aze "
         "kaz uzb tat bak chv mon khm lao mya sin tam tel kan mal mar guj pan ori asm nep bod uig kir tgk").split()


def get(url: str):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, json.load(response)


def test_a_server_with_100_more_pairs_answers_within_2_s_while_its_checks_go_on(tmp_path):
    binary = glossa_binary()
    require_serve(binary)
    modes = tmp_path / "modes"
    modes.mkdir()
    # A stage that takes a second to start, then echoes (sed, null-flushed as Apertium's are).
    slow = tmp_path / "slow-echo"
    slow.write_text('#!/bin/sh\nsleep 1\nexec sed -u "$@"\n')
    slow.chmod(0o755)
    for code in CODES:
        for name in (f"eng-{code}", f"{code}-eng"):
            (modes / f"{name}.mode").write_text(f"{slow} ''\n")
    env = {"GLOSSA_APERTIUM_MODES": str(modes), "GLOSSA_PROBE_CACHE": str(tmp_path / "probes.json"),
           "GLOSSA_PREWARM": "none", "XDG_DATA_HOME": str(tmp_path / "data")}
    started = time.monotonic()
    server = Server(binary, env_extra=env, ready=False)
    try:
        listening = time.monotonic() - started
        status, health = get(server.url + "/glossa/v1/health")
        answered = time.monotonic() - started
        assert status == 200 and answered < 2, (listening, answered)
        apertium = next(e for e in health["engines"] if e["engine"] == "apertium")
        assert health["checking"] is True and apertium["checking"]["total"] >= 100, health
        assert apertium["checking"]["checked"] < apertium["checking"]["total"]
        # A real pair translates meanwhile, and so does a synthetic one not checked yet (it is
        # checked first: its pipeline echoes the text).
        request = urllib.request.Request(server.url + "/language/translate/v2?q=Good+morning&source=en&target=es&format=text")
        with urllib.request.urlopen(request, timeout=60) as response:
            assert json.load(response)["data"]["translations"][0]["translatedText"] == "Buenos días"
        with urllib.request.urlopen(server.url + "/language/translate/v2?q=hello&source=tg&target=en&format=text", timeout=60) as response:
            assert json.load(response)["data"]["translations"][0]["translatedText"] == "hello"
        assert not server.ready.is_set(), "the check of 100 slow pairs on this machine is not over yet"
        # The check goes on: more pairs are checked a few seconds later.
        time.sleep(4)
        _, later = get(server.url + "/glossa/v1/health")
        later_apertium = next(e for e in later["engines"] if e["engine"] == "apertium")
        assert later_apertium.get("checking", {"checked": 10**6})["checked"] > apertium["checking"]["checked"]
        # SIGTERM in the middle of the check: a prompt, graceful stop.
        stopping = time.monotonic()
        assert server.stop() == 0
        assert time.monotonic() - stopping < 15
    finally:
        if server.proc.poll() is None:
            os.kill(server.proc.pid, signal.SIGKILL)
