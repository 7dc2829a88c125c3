"""Debian's apertium-apy as a differential peer: started by the tests on 127.0.0.1 over the
same pairs and the same analysis modes as Glossa (Glossa writes them with `glossa modes
--export`), stopped by PID."""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

APY = shutil.which("apertium-apy")
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# APy 0.11.7 listens on every interface; this launcher binds it to 127.0.0.1 (see its docstring).
LOOPBACK = os.path.join(REPO, "bench", "apy_loopback.py")
LANG_NAMES = "/usr/share/apertium-apy/langNames.db"
MODES = "/usr/share/apertium/modes"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Peer:
    """One running apertium-apy."""

    def __init__(self, export_dir: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Debian's python3, where apertium_apy is installed (not the test venv's).
        args = ["/usr/bin/python3", LOOPBACK, "-p", str(self.port), "-s", export_dir]
        if os.path.exists(LANG_NAMES):
            args += ["-l", LANG_NAMES]
        # APy logs every request to stderr. It goes to a file, never to a pipe that nobody reads:
        # once a pipe's 64 KiB buffer is full, APy's single event loop blocks in its logger and
        # every later request, to any endpoint, waits out the client's timeout.
        self.log = tempfile.TemporaryFile()
        # -j1 (one process) keeps one set of pipelines, so its /stats counts every request.
        # -m 10 shuts a pipeline unused for 10 s (APy checks after each translation): APy keeps
        # every pipeline it ever started otherwise, and with all of Debian's pairs installed the
        # every-pair comparison would hold about 800 processes and most of a 24 GB machine's memory.
        self.proc = subprocess.Popen(args + ["-j", "1", "-m", "10", MODES], stdout=subprocess.DEVNULL, stderr=self.log,
                                     env={**os.environ, "LC_ALL": "C.UTF-8"})
        deadline = time.time() + 120
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"apertium-apy exited: {self.log_tail()}")
            if self.answers(timeout=5):
                return
            time.sleep(0.5)
        self.stop()
        raise AssertionError("apertium-apy did not answer within 120 s")

    def answers(self, timeout: float = 15) -> bool:
        """Whether APy still answers a cheap request within `timeout` seconds."""
        try:
            urllib.request.urlopen(self.url + "/listPairs", timeout=timeout).read()
            return True
        except (urllib.error.URLError, ConnectionError, socket.timeout, TimeoutError):
            return False

    def log_tail(self, limit: int = 2000) -> str:
        """The end of what APy wrote to stderr."""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-limit:]

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def request(base: str, path: str, data: dict | None = None, headers: dict | None = None,
            files: dict | None = None, timeout: float = 120):
    """(status, parsed JSON or raw bytes, content type) for GET path, or POST form/multipart."""
    body, hdrs = None, dict(headers or {})
    if files is not None:
        boundary = "glossa-test-boundary-7f3a"
        parts = []
        for name, value in (data or {}).items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        for name, (filename, content) in files.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                         f'Content-Type: application/octet-stream\r\n\r\n'.encode() + content + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        hdrs["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    elif data is not None:
        body = urllib.parse.urlencode(data).encode()
        hdrs["Content-Type"] = "application/x-www-form-urlencoded"
    req = urllib.request.Request(base + path, data=body, headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, raw, ctype = r.status, r.read(), r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        status, raw, ctype = e.code, e.read(), e.headers.get("Content-Type", "")
    if "json" in ctype:
        try:
            return status, json.loads(raw.decode("utf-8")), ctype
        except ValueError:
            pass
    return status, raw, ctype
