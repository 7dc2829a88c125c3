"""HTTP load from `wrk` (Debian's package), shared by the server benchmarks.

Why wrk: on a 2-core machine the load generator shares the cores with the server it measures.
Python clients (one process per connection) took about a third of a core at 600 requests/s,
which the faster server pays for most; wrk, one C thread, takes far less, and it loads every
server alike. Each request set is sent in turn (a Lua counter shared by all connections), so
every request is sent about equally often whatever the concurrency.
"""
import os
import re
import shutil
import subprocess
import tempfile

WRK = shutil.which("wrk")


def lua_string(text: str) -> bytes:
    """`text` as a Lua string literal: its UTF-8 bytes as they are, except a backslash, a quote
    and control bytes, which are written as decimal escapes (\\ddd), read alike by every Lua."""
    out = bytearray(b'"')
    for b in text.encode("utf-8"):
        out += f"\\{b:03d}".encode() if b < 0x20 or b in (0x22, 0x5C, 0x7F) else bytes([b])
    return bytes(out + b'"')


def script(requests) -> bytes:
    """A wrk script sending `requests` ((method, path, body, headers) tuples) in turn."""
    rows = []
    for method, path, body, headers in requests:
        header_table = b", ".join(b"[" + lua_string(k) + b"] = " + lua_string(v) for k, v in (headers or {}).items())
        body_literal = lua_string(body) if body is not None else b"nil"
        rows.append(b"{" + lua_string(method) + b", " + lua_string(path) + b", " + body_literal + b", {" + header_table + b"}}")
    return (b"requests = {" + b",\n".join(rows) + b"}\ni = 0\n"
            b"request = function()\n  i = i % #requests + 1\n  local r = requests[i]\n"
            b"  return wrk.format(r[1], r[2], r[4], r[3])\nend\n")


def wrk_load(port: int, requests, seconds: float, concurrency: int) -> dict:
    """`requests` in turn on `concurrency` keep-alive connections for `seconds`, from one wrk
    thread: requests, errors (non-2xx and socket errors), requests/s, p50 and p99 latency."""
    with tempfile.NamedTemporaryFile("wb", suffix=".lua", delete=False) as f:
        f.write(script(requests))
    try:
        out = subprocess.run([WRK, "-t1", f"-c{concurrency}", f"-d{max(1, round(seconds))}s", "--latency",
                              "--timeout", "60s", "-s", f.name, f"http://127.0.0.1:{port}"],
                             capture_output=True, text=True, timeout=seconds + 90, check=True).stdout
    finally:
        os.unlink(f.name)

    def millis(label: str) -> float:
        value, unit = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    failed = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {"requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "errors": (int(bad.group(1)) if bad else 0) + (sum(map(int, failed.groups())) if failed else 0),
            "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50_ms": millis("50"), "p99_ms": millis("99")}
