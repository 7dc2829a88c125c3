"""The translation cache on a Weblate-like workload: short UI strings where 40 % of the requests
repeat a string sent before, one string per request (LibreTranslate's `POST /translate`, eng→spa,
as Weblate's LibreTranslate connection sends them), from 4 keep-alive connections. Two
`glossa serve` (release build) side by side, GLOSSA_TRANSLATION_CACHE_MB=64 (the default) and 0,
each round on both in turn, the order swapped every round; it prints each round's requests/s and
the median ratio cached / uncached, and the cache's hit count from /metrics.

The strings: English UI-like fragments cut from FLORES-200 dev (1 to 6 words, as labels, menu
items and short messages are), the same list in every round. Each round sends the whole list
once, so the repeat share is exactly what it says (a time-boxed load would cycle through it).
LibreTranslate's own `--translation-cache` is not measured: LibreTranslate cannot be installed
here (its Argos models and torch come from outside Debian and PyPI's reach for this machine).

Usage: python bench/bench_cache.py [ROUNDS] (default 3), after `make build-release`."""
import http.client
import json
import pathlib
import random
import re
import statistics
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_server as B  # noqa: E402

CONNECTIONS = 4
REQUESTS = 1200
REPEAT_SHARE = 0.4


def workload(seed: int = 7) -> list[str]:
    """REQUESTS strings: the first time each is sent is new; REPEAT_SHARE of the requests repeat
    one sent before."""
    rng = random.Random(seed)
    fragments = []
    for sentence in B.SENTENCES:
        words = sentence.rstrip(".").split()
        n = rng.randint(1, 6)
        if len(words) >= n:
            fragments.append(" ".join(words[:n]).capitalize())
    unique = list(dict.fromkeys(fragments))
    out, used = [], []
    for _ in range(REQUESTS):
        if used and rng.random() < REPEAT_SHARE:
            out.append(rng.choice(used))
        else:
            text = unique[len(used)]
            used.append(text)
            out.append(text)
    return out


def send_all(port: int, texts: list[str]) -> float:
    """Requests/s for sending every text once, split over CONNECTIONS keep-alive connections."""
    errors = []

    def run(part):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for text in part:
            conn.request("POST", "/translate", json.dumps({"q": text, "source": "en", "target": "es"}),
                         {"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                errors.append(response.status)
        conn.close()

    parts = [texts[i::CONNECTIONS] for i in range(CONNECTIONS)]
    started = time.monotonic()
    threads = [threading.Thread(target=run, args=(part,)) for part in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return len(texts) / (time.monotonic() - started)


def hits(port: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    return int(re.search(r"^glossa_translation_cache_hits_total (\d+)$", text, re.M).group(1))


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    texts = workload()
    print(f"{len(texts)} requests, {len(set(texts))} distinct strings ({100 * (1 - len(set(texts)) / len(texts)):.0f} % repeats), "
          f"{CONNECTIONS} connections")
    servers, ratios = {}, []
    try:
        for mb in ("64", "0"):
            servers[mb] = B.start_glossa({**B.ENV, "GLOSSA_TRANSLATION_CACHE_MB": mb})
        for n in range(rounds):
            rps = {}
            for mb in ("64", "0") if n % 2 == 0 else ("0", "64"):
                # A fresh cache each round would need a restart: the first round is the one where
                # only the repeats can hit; later rounds show a warm cache (every string seen).
                rps[mb] = send_all(servers[mb][1], texts)
            ratios.append(rps["64"] / rps["0"])
            print(f"round {n + 1}: cache 64 MB {rps['64']:.0f} req/s, off {rps['0']:.0f} req/s, ratio {ratios[-1]:.2f}; "
                  f"hits so far {hits(servers['64'][1])}", flush=True)
    finally:
        for proc, _ in servers.values():
            B.stop(proc)
    print(f"first round (40 % repeats, cold cache): cached / uncached {ratios[0]:.2f}")
    if len(ratios) > 1:
        print(f"later rounds (warm cache), median of {len(ratios) - 1}: {statistics.median(ratios[1:]):.2f}")


if __name__ == "__main__":
    main()
