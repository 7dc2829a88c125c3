"""`glossa models install URL` when the download fails: the error names the URL (not a temporary
file), starts on a line of its own, and no progress bar reaches 100 % for an error page."""
import http.server
import os
import subprocess
import threading

import pytest


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/garbage.argosmodel":
            body = bytes(range(256)) * 64  # 16 KiB that is no zip archive
            self.send_response(200)
        else:
            body = b"<html><body>404 Not Found</body></html>" * 100
            self.send_response(404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def install(glossa_bin, tmp_path, source):
    return subprocess.run([glossa_bin, "models", "install", source], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})


def test_http_error_names_the_url_without_progress(glossa_bin, site, tmp_path):
    url = site + "/missing.argosmodel"
    p = install(glossa_bin, tmp_path, url)
    assert p.returncode == 1
    assert p.stderr == f"glossa: Download of {url} failed: HTTP 404.\n", repr(p.stderr)
    assert not (tmp_path / "glossa" / "models").exists() or not any((tmp_path / "glossa" / "models").iterdir())


def test_a_download_that_is_no_package_names_the_url_on_its_own_line(glossa_bin, site, tmp_path):
    url = site + "/garbage.argosmodel"
    p = install(glossa_bin, tmp_path, url)
    assert p.returncode == 1
    lines = p.stderr.split("\n")
    error = [line for line in lines if line.startswith("glossa: ")]
    assert len(error) == 1, repr(p.stderr)
    assert url in error[0] and "glossa-download" not in p.stderr, repr(p.stderr)
    assert "Downloading" in p.stderr.split("glossa: ")[0], "the download's progress was shown"
    assert p.stderr.endswith("\n")


def test_a_missing_file_is_named(glossa_bin, tmp_path):
    p = install(glossa_bin, tmp_path, str(tmp_path / "nothing.argosmodel"))
    assert p.returncode == 1 and "nothing.argosmodel" in p.stderr
