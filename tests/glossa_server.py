"""A live `glossa serve` on 127.0.0.1 for the HTTP tests: started on a free port (`--port 0`, the
port is read from its first line), stopped by PID with SIGTERM, which must end it gracefully."""
import http.client
import os
import pathlib
import re
import signal
import subprocess
import threading

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent


def glossa_binary() -> str:
    path = os.environ.get("GLOSSA_BIN", str(REPO / ".build" / "debug" / "glossa"))
    assert os.access(path, os.X_OK), f"glossa binary not found at {path}: run `swift build` (make test does)"
    return path


class Server:
    """One running `glossa serve`."""

    def __init__(self, binary: str, *extra: str, env_extra: dict[str, str] | None = None, ready: bool = True):
        """Returns once the server listens and, with `ready`, once its start-up checks are done
        (its second line, `glossa serve: ready`): the tests then see every pair's verdict."""
        self.proc = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "LC_ALL": "C.UTF-8", **(env_extra or {})})
        self.lines: list[str] = []
        found = threading.Event()
        self.ready = threading.Event()

        def read():
            for line in self.proc.stdout:
                self.lines.append(line)
                if "listening on" in line:
                    found.set()
                if "glossa serve: ready" in line:
                    self.ready.set()

        # stderr is read all the time too: a pipe nobody reads fills at 64 KiB and then blocks the
        # server's next write to it. The last lines are kept for failure messages.
        self.errors: list[str] = []

        def read_errors():
            for line in self.proc.stderr:
                self.errors.append(line)
                del self.errors[:-200]

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=read_errors, daemon=True).start()
        if not found.wait(180):
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"glossa serve did not start: stdout={self.lines} stderr={''.join(self.errors)[-4000:]}")
        if ready and not self.ready.wait(300):
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"glossa serve did not get ready: stdout={self.lines} stderr={''.join(self.errors)[-4000:]}")
        match = re.search(r"http://127\.0\.0\.1:(\d+)", "".join(self.lines))
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> int:
        """SIGTERM by PID; returns the exit status (0 after a graceful stop)."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            raise AssertionError("glossa serve did not stop within 60 s of SIGTERM")


def require_serve(binary: str) -> None:
    """Skips (with the reason) when this binary's `serve` is not the HTTP server yet."""
    help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=60).stdout
    if "Endpoints:" not in help_text:
        pytest.skip("this glossa binary's `serve` does not run the HTTP server yet (runServe not wired)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    binary = glossa_binary()
    require_serve(binary)
    # Its own data folder: glossaries made by a test land in a database of their own, never in
    # the home folder of whoever runs the tests.
    s = Server(binary, env_extra={"XDG_DATA_HOME": str(tmp_path_factory.mktemp("glossa-data"))})
    yield s
    assert s.stop() == 0, "glossa serve must exit 0 after SIGTERM (graceful shutdown)"


def call(srv, method, path, body=None, headers=None):
    """One request on its own connection to `srv`; returns (status, headers as a dict, body bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=60)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), data
