"""A model installed or removed while `glossa serve` runs is used (or given up) from the next
request on, in every protocol and list, without a restart: a generated en→de Argos package
(random weights: the test checks the routes, not the words) installed with `glossa models
install` into the models folder of a running server."""
import json
import os
import subprocess
import time

from glossa_server import Server, call, glossa_binary
from test_readme import argos_package  # noqa: F401  (the generated package, a fixture)


def models(data_home, *arguments):
    return subprocess.run([glossa_binary(), "models", *arguments], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "XDG_DATA_HOME": str(data_home)})


def google(srv, text="Good morning"):
    return call(srv, "POST", "/language/translate/v2", json.dumps({"q": [text], "source": "en", "target": "de", "format": "text"}).encode(),
                {"Content-Type": "application/json"})


def eventually(check, seconds=10):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.2)


def test_install_and_remove_under_load_answers_every_request(tmp_path, argos_package):  # noqa: F811
    """Clients keep asking for English→Spanish (Apertium) and English→German (the model) while the
    model is installed and removed: every request is answered, 200 or the protocol's 400 for a
    pair not (or no longer) served, never a 5xx or a dropped connection."""
    import threading
    s = Server(glossa_binary(), env_extra={"XDG_DATA_HOME": str(tmp_path)})
    statuses, errors, stop = [], [], threading.Event()

    def client(target):
        while not stop.is_set():
            try:
                statuses.append((target, google(s, "Good morning")[0] if target == "de" else
                                 call(s, "POST", "/language/translate/v2", json.dumps({"q": ["Good morning"], "source": "en",
                                                                                        "target": "es", "format": "text"}).encode(),
                                      {"Content-Type": "application/json"})[0]))
            except Exception as error:  # noqa: BLE001  (a dropped connection is what is looked for)
                errors.append(repr(error))
    threads = [threading.Thread(target=client, args=(t,)) for t in ("de", "es", "de", "es")]
    try:
        for t in threads:
            t.start()
        time.sleep(0.5)
        assert models(tmp_path, "install", str(argos_package)).returncode == 0
        eventually(lambda: ("de", 200) in statuses)
        assert models(tmp_path, "remove", "translate-en_de-1_0").returncode == 0
        seen = len(statuses)
        eventually(lambda: any(st == ("de", 400) for st in statuses[seen:]))
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
        assert s.stop() == 0
    assert not errors, errors[:3]
    assert {st for _, st in statuses} <= {200, 400}, set(statuses)
    assert all(st == 200 for target, st in statuses if target == "es")
    assert len(statuses) > 20


def test_install_and_remove_while_serving(tmp_path, argos_package):  # noqa: F811
    s = Server(glossa_binary(), env_extra={"XDG_DATA_HOME": str(tmp_path)})
    try:
        status, _, body = google(s)
        assert status == 400, body  # no pair translates into German yet
        installed = models(tmp_path, "install", str(argos_package))
        assert installed.returncode == 0, installed.stderr
        # From the next request on (the engines' pairs are read again at most once a second).
        eventually(lambda: google(s)[0] == 200)
        status, _, body = google(s)
        assert json.loads(body)["data"]["translations"][0]["translatedText"]
        _, _, body = call(s, "GET", "/languages")
        assert any(entry["code"] == "de" for entry in json.loads(body))  # LibreTranslate's list
        status, _, body = call(s, "POST", "/v2/translate", json.dumps({"text": ["Good morning"], "source_lang": "EN",
                                                                     "target_lang": "DE"}).encode(),
                               {"Content-Type": "application/json", "Authorization": "DeepL-Auth-Key k"})
        assert status == 200, body
        listed = models(tmp_path, "list")
        assert listed.returncode == 0 and "translate-en_de" in listed.stdout, listed.stdout
        removed = models(tmp_path, "remove", "translate-en_de-1_0")
        assert removed.returncode == 0, removed.stderr
        eventually(lambda: google(s)[0] == 400)
    finally:
        assert s.stop() == 0
