"""One Apertium pipeline per pair against two (GLOSSA_PIPELINES=1 and 2, the default), side by
side: single sentences at concurrency 1, 4 and 16 and 8-sentence paragraphs at 1 and 4 (APy's
`/translate` GET, eng-spa, from wrk), each row measured on both servers in turn, the order
swapped every round; it prints each round's requests/s and the median ratio one/two per row.

Usage: python bench/pipeline_count.py [ROUNDS] (default 3), after `make build-release`."""
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_server as B  # noqa: E402
from paragraph_cpu import translate_get  # noqa: E402
from wrk_load import wrk_load  # noqa: E402


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    single = [translate_get(s) for s in B.SENTENCES[:200]]
    paragraphs = [translate_get(p) for p in B.PARAGRAPHS]
    rows = [("sentences", single, 1), ("sentences", single, 4), ("sentences", single, 16),
            ("paragraphs", paragraphs, 1), ("paragraphs", paragraphs, 4)]
    servers = {}
    ratios: dict[tuple[str, int], list[float]] = {}
    try:
        for count in ("1", "2"):
            servers[count] = B.start_glossa({**B.ENV, "GLOSSA_PIPELINES": count})
        for n in range(rounds):
            for name, requests, concurrency in rows:
                rps = {}
                for count in ("1", "2") if n % 2 == 0 else ("2", "1"):
                    rps[count] = wrk_load(servers[count][1], requests, B.SECONDS, concurrency)["rps"]
                ratios.setdefault((name, concurrency), []).append(rps["1"] / rps["2"])
                print(f"round {n + 1}: {name} c{concurrency}: one pipeline {rps['1']:.0f}, two {rps['2']:.0f} req/s", flush=True)
    finally:
        for proc, _ in servers.values():
            B.stop(proc)
    for (name, concurrency), values in ratios.items():
        print(f"{name} c{concurrency}: one pipeline / two, median of {rounds}: {statistics.median(values):.3f}")


if __name__ == "__main__":
    main()
