"""Models by name from an Argos package index, and argos-translate's packages read in place.

A local HTTP server on 127.0.0.1 serves an index and packages generated from the test package
(random weights: the tests check the paths, not the words), with Range support, and on some paths
a truncated or a corrupted body. `glossa models available`, `install de` (with its progress bar),
`update`, a corrupt and a truncated download refused with nothing installed (the truncated one
going on from where it stopped next time), `install --offline DIR`, argos-translate's package
folder used in place by `glossa serve`, and LibreTranslate's LT_LOAD_ONLY."""
import hashlib
import http.server
import io
import json
import os
import pathlib
import subprocess
import threading
import zipfile

import pytest

from glossa_server import Server, call, glossa_binary
from test_readme import argos_package  # noqa: F401  (the generated package, a fixture)


def repackaged(source: pathlib.Path, name: str, metadata: dict) -> bytes:
    """The package at `source` with another top folder and metadata."""
    out = io.BytesIO()
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zout:
        for item in zin.infolist():
            rest = item.filename.split("/", 1)[1] if "/" in item.filename else ""
            data = json.dumps(metadata).encode() if rest == "metadata.json" else zin.read(item)
            zout.writestr(f"{name}/{rest}", data)
    return out.getvalue()


class PackageServer:
    """Serves files from memory; `/truncated/X` sends half of X and closes, `/corrupt/X` sends X
    with bytes changed, `/flaky/X` is truncated the first time and whole (with Range) after."""

    def __init__(self, files: dict[str, bytes]):
        self.files = files
        self.ranges: list[str | None] = []
        self.flaky_served = False
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                kind, _, name = self.path.lstrip("/").partition("/")
                if not name:
                    kind, name = "", kind
                body = owner.files.get(name)
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                owner.ranges.append(self.headers.get("Range"))
                if kind == "corrupt":
                    body = body[:len(body) // 2] + bytes(b ^ 0xFF for b in body[len(body) // 2:len(body) // 2 + 64]) + body[len(body) // 2 + 64:]
                start = 0
                if self.headers.get("Range", "").startswith("bytes=") and kind != "truncated":
                    start = int(self.headers["Range"][6:].split("-")[0])
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(body) - start))
                self.end_headers()
                if kind == "truncated" or (kind == "flaky" and not owner.flaky_served):
                    owner.flaky_served = owner.flaky_served or kind == "flaky"
                    self.wfile.write(body[start:start + len(body) // 2])
                    self.wfile.flush()
                    self.connection.shutdown(2)
                    return
                self.wfile.write(body[start:])

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def packages(argos_package):  # noqa: F811
    base = {"package_version": "1.0", "from_code": "en", "to_code": "de", "from_name": "English", "to_name": "German"}
    return {
        "translate-en_de-1_0.argosmodel": argos_package.read_bytes(),
        "translate-en_de-1_1.argosmodel": repackaged(argos_package, "translate-en_de-1_1", {**base, "package_version": "1.1"}),
        "translate-de_en-1_0.argosmodel": repackaged(argos_package, "translate-de_en-1_0", {**base, "from_code": "de", "to_code": "en"}),
    }


@pytest.fixture(scope="module")
def site(packages):
    server = PackageServer(dict(packages))

    def entry(file, code, version, source, target, link=None):
        body = packages[file]
        return {"code": code, "package_version": version, "argos_version": "1.9", "from_code": source, "to_code": target,
                "links": [link or f"{server.url}/{file}"], "size": len(body), "sha256": hashlib.sha256(body).hexdigest()}

    index = [entry("translate-en_de-1_0.argosmodel", "translate-en_de", "1.0", "en", "de"),
             entry("translate-en_de-1_1.argosmodel", "translate-en_de", "1.1", "en", "de"),
             entry("translate-de_en-1_0.argosmodel", "translate-de_en", "1.0", "de", "en")]
    server.files["index.json"] = json.dumps(index).encode()
    bad = [entry("translate-en_de-1_1.argosmodel", "translate-en_de", "1.1", "en", "de", f"{server.url}/corrupt/translate-en_de-1_1.argosmodel"),
           entry("translate-de_en-1_0.argosmodel", "translate-de_en", "1.0", "de", "en", f"{server.url}/flaky/translate-de_en-1_0.argosmodel")]
    server.files["bad.json"] = json.dumps(bad).encode()
    yield server
    server.stop()


def glossa(data, *args, env=None):
    return subprocess.run([glossa_binary(), *args], capture_output=True, text=True, timeout=300,
                          env={"XDG_DATA_HOME": str(data), "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", **(env or {})})


def installed(data):
    models = data / "glossa" / "models"
    return sorted(p.name for p in models.iterdir() if not p.name.startswith(".")) if models.exists() else []


def test_available_install_by_language_and_update(site, tmp_path):
    listed = glossa(tmp_path, "models", "available", "--index", f"{site.url}/index.json", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = {(r["name"], r["version"]) for r in json.loads(listed.stdout)}
    assert rows == {("translate-en_de", "1.1"), ("translate-de_en", "1.0")}

    # An older version first, from a file, then `update` brings the newer one.
    old = glossa(tmp_path, "models", "install", f"{site.url}/translate-en_de-1_0.argosmodel")
    assert old.returncode == 0, old.stderr
    assert installed(tmp_path) == ["translate-en_de-1_0"]
    updated = glossa(tmp_path, "models", "update", "--index", f"{site.url}/index.json")
    assert updated.returncode == 0 and "Updated 1 model" in updated.stdout, updated
    assert installed(tmp_path) == ["translate-en_de-1_1"]

    # `de`: both directions with English, the newest of each, with a progress bar.
    both = glossa(tmp_path, "models", "install", "de", env={"GLOSSA_MODEL_INDEX": f"{site.url}/index.json"})
    assert both.returncode == 0, both.stderr
    assert "Downloading translate-de_en 1.0" in both.stderr and "100%" in both.stderr
    assert "translate-en_de 1.1 (en → de) is installed already" in both.stdout
    assert installed(tmp_path) == ["translate-de_en-1_0", "translate-en_de-1_1"]
    assert not list((tmp_path / "glossa" / "models" / ".downloads").iterdir())
    # A name the index does not have says so.
    missing = glossa(tmp_path, "models", "install", "xx", "--index", f"{site.url}/index.json")
    assert missing.returncode == 1 and "no package named xx" in missing.stderr


def test_a_corrupt_download_is_refused_and_a_truncated_one_goes_on_next_time(site, tmp_path):
    corrupt = glossa(tmp_path, "models", "install", "en:de", "--index", f"{site.url}/bad.json")
    assert corrupt.returncode == 1 and "SHA-256" in corrupt.stderr and "nothing installed" in corrupt.stderr, corrupt
    assert installed(tmp_path) == [] and not list((tmp_path / "glossa" / "models" / ".downloads").iterdir())

    site.ranges.clear()
    first = glossa(tmp_path, "models", "install", "de:en", "--index", f"{site.url}/bad.json")
    assert first.returncode == 1 and "failed" in first.stderr, first
    assert installed(tmp_path) == []
    partial = list((tmp_path / "glossa" / "models" / ".downloads").iterdir())
    have = partial[0].stat().st_size if len(partial) == 1 else 0
    assert have > 0, partial
    again = glossa(tmp_path, "models", "install", "de:en", "--index", f"{site.url}/bad.json")
    assert again.returncode == 0, again.stderr
    # The second request asked only for the rest, and the part is gone once installed.
    assert site.ranges[-1] == f"bytes={have}-", site.ranges
    assert not list((tmp_path / "glossa" / "models" / ".downloads").iterdir())
    assert installed(tmp_path) == ["translate-de_en-1_0"]


def test_offline_folder(packages, tmp_path):
    folder = tmp_path / "usb"
    folder.mkdir()
    for name, body in packages.items():
        (folder / name).write_bytes(body)
    (folder / "notes.argosmodel").write_bytes(b"not a package")
    done = glossa(tmp_path, "models", "install", "--offline", str(folder), "en:de")
    assert done.returncode == 0, done.stderr
    assert "skipping notes.argosmodel" in done.stderr
    assert installed(tmp_path) == ["translate-en_de-1_1"]


def test_argos_translate_packages_are_used_in_place_and_load_only_limits(packages, tmp_path):
    argos = tmp_path / "argos-packages"
    with zipfile.ZipFile(io.BytesIO(packages["translate-en_de-1_0.argosmodel"])) as z:
        z.extractall(argos)
    before = sorted(p.name for p in argos.rglob("*"))
    env = {"ARGOS_PACKAGES_DIR": str(argos), "XDG_DATA_HOME": str(tmp_path / "data")}
    listed = glossa(tmp_path / "data", "models", "list", env=env)
    assert "translate-en_de-1_0" in listed.stdout and "read in place" in listed.stdout, listed
    s = Server(glossa_binary(), env_extra=env)
    try:
        status, _, body = call(s, "POST", "/language/translate/v2", json.dumps({"q": ["Hello"], "source": "en", "target": "de"}).encode(),
                               {"Content-Type": "application/json"})
        assert status == 200, body
    finally:
        assert s.stop() == 0
    assert sorted(p.name for p in argos.rglob("*")) == before   # nothing written there

    limited = Server(glossa_binary(), env_extra={**env, "LT_LOAD_ONLY": "en,es"})
    try:
        _, _, body = call(limited, "GET", "/languages")
        # Languages by base code: the es→en-US variant pair stays with English.
        assert {entry["code"].split("-")[0] for entry in json.loads(body)} == {"en", "es"}
        status, _, _ = call(limited, "POST", "/language/translate/v2", json.dumps({"q": ["Hello"], "source": "en", "target": "de"}).encode(),
                            {"Content-Type": "application/json"})
        assert status == 400
    finally:
        assert limited.stop() == 0
