"""What Apertium's stages cost per sentence as Glossa must feed them, against one stream: a mode's
null-flush pipeline as Glossa runs it (bench/apertium_stream.py) translates the same FLORES-200 dev
sentences three ways, and the stages' CPU time (from /proc, start-up excluded) is printed per
sentence:

- one frame holding every sentence, one per line: what raw `apertium` does with a file (state
  such as the tagger's flows from sentence to sentence);
- one frame per sentence, all written at once: Glossa under load (every text is a frame of its
  own, so that its translation depends on its bytes alone);
- one frame per sentence, each written when the previous answer is back: Glossa serving one
  request at a time.

The last two against the first bound how close any client of warm Apertium pipelines can come to
raw `apertium`'s words/s while keeping each text's translation independent of the others.

    .venv/bin/python bench/apertium_frames.py [MODE] [ROUNDS]   (default eng-spa 3)
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import apertium_stream  # noqa: E402


def stage_cpu(pipeline) -> float:
    return sum(cpu for _, _, cpu in apertium_stream.stages(pipeline.pid).values())


def measure(mode: str, frames: list[bytes], serial: bool) -> tuple[float, float]:
    """Stage CPU seconds and wall seconds for `frames`, after one warm-up frame."""
    pipeline = apertium_stream.start(mode)
    pipeline.stdin.write(frames[0])
    pipeline.stdin.flush()
    apertium_stream.read_answers(pipeline, 1)
    cpu0, t0 = stage_cpu(pipeline), time.perf_counter()
    if serial:
        for f in frames:
            pipeline.stdin.write(f)
            pipeline.stdin.flush()
            apertium_stream.read_answers(pipeline, 1)
    else:
        apertium_stream.stream(pipeline, frames)
    wall = time.perf_counter() - t0
    cpu = stage_cpu(pipeline) - cpu0
    pipeline.stdin.close()
    pipeline.wait()
    return cpu, wall


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "eng-spa"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    texts = apertium_stream.sentences()
    one = [("\n".join(apertium_stream.deformat(s) for s in texts) + "\0").encode()]
    each = [apertium_stream.frame(s) for s in texts]
    ways = [("one frame, every sentence", one, False), ("a frame per sentence, streamed", each, False),
            ("a frame per sentence, one at a time", each, True)]
    results = {name: [] for name, _, _ in ways}
    for _ in range(rounds):
        for name, frames, serial in ways:
            results[name].append(measure(mode, frames, serial))
    print(f"{mode}, {len(texts)} FLORES eng dev sentences, medians of {rounds} rounds (stages' CPU, start-up excluded):")
    base = statistics.median(cpu for cpu, _ in results[ways[0][0]])
    for name, _, _ in ways:
        cpu = statistics.median(c for c, _ in results[name])
        wall = statistics.median(w for _, w in results[name])
        print(f"  {name:38} {1000 * cpu / len(texts):5.2f} ms CPU/sentence ({cpu / base:4.2f}x)  {len(texts) / wall:7.0f} sentences/s")


if __name__ == "__main__":
    main()
