"""How a warm Apertium pipeline's processes grow: runs a mode's null-flush pipeline as Glossa runs
it (bench/apertium_stream.py), sends it FLORES-200 dev sentences one frame each, and prints every
stage's resident memory after a warm-up of WARM frames and again after FRAMES more (the sentences
in turn), with the growth per frame. What it measures is what
`ApertiumEngine.Configuration.maxMemoryGrowth` bounds.

    .venv/bin/python bench/pipeline_growth.py [MODE] [FRAMES] [WARM]   (default eng-spa 30000 2000)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import apertium_stream  # noqa: E402


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "eng-spa"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 30000
    warm = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    frames = [apertium_stream.frame(s) for s in apertium_stream.sentences()]
    pipeline = apertium_stream.start(mode)

    def run(n: int, start: int) -> None:
        apertium_stream.stream(pipeline, [frames[(start + k) % len(frames)] for k in range(n)])

    run(warm, 0)
    before = apertium_stream.stages(pipeline.pid)
    run(count, warm)
    after = apertium_stream.stages(pipeline.pid)
    pipeline.stdin.close()
    pipeline.wait()
    print(f"{mode}: resident KB after {warm} frames and after {count} more (FLORES eng dev in turn)")
    for pid, (name, kb, _) in before.items():
        grown = after.get(pid, (name, kb, 0))[1] - kb
        print(f"  {name:18} {kb:8} -> {kb + grown:8}   {grown * 1024 / count:7.1f} bytes/frame")
    total = sum(after[p][1] - before[p][1] for p in before if p in after)
    print(f"  all stages: {total} KB more, {total * 1024 / count:.1f} bytes per frame")


if __name__ == "__main__":
    main()
