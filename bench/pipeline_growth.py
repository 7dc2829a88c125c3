"""How a warm Apertium pipeline's processes grow: runs a mode's null-flush pipeline as Glossa runs
it (`apertium-wblank-mode -z`, apertium-tagger replaced by glossa-apertium-tagger, unknown words
unmarked), sends it FLORES-200 dev sentences one frame each, and prints every stage's resident
memory after a warm-up of WARM frames and again after FRAMES more (the sentences in turn), with
the growth per frame. What it measures is what `ApertiumEngine.Configuration.maxMemoryGrowth`
bounds.

    .venv/bin/python bench/pipeline_growth.py [MODE] [FRAMES] [WARM]   (default eng-spa 30000 2000)
"""
import os
import pathlib
import subprocess
import sys
import threading

REPO = pathlib.Path(__file__).resolve().parent.parent
FLORES = REPO.parent / "shared" / "data" / "flores200-dev" / "eng_Latn.dev"
TAGGER = os.environ.get("GLOSSA_APERTIUM_TAGGER", str(REPO / ".build" / "release" / "glossa-apertium-tagger"))
SPECIAL = set("[]^$@/<>{}\\*#")


def frame(sentence: str) -> bytes:
    """A sentence as Apertium's text deformatter would give it: specials escaped, closed by `.[]`."""
    return ("".join("\\" + c if c in SPECIAL else c for c in sentence) + ".[]\0").encode()


def stages(parent: int) -> dict[int, tuple[str, int]]:
    """The pipeline's stages: pid -> (name, resident KB)."""
    with open(f"/proc/{parent}/task/{parent}/children") as f:
        pids = [int(p) for p in f.read().split()]
    out = {}
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        with open(f"/proc/{pid}/statm") as f:
            resident_pages = int(f.read().split()[1])
        out[pid] = (stat[stat.index("(") + 1:stat.rindex(")")], resident_pages * os.sysconf("SC_PAGESIZE") // 1024)
    return out


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "eng-spa"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 30000
    warm = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    script = subprocess.run(["apertium-wblank-mode", "-z", f"/usr/share/apertium/modes/{mode}.mode"],
                            capture_output=True, text=True, check=True).stdout
    if os.path.exists(TAGGER):
        script = " | ".join(TAGGER + s.strip()[len("apertium-tagger"):] if s.strip().startswith("apertium-tagger") else s
                            for s in script.split(" | "))
    frames = [frame(s) for s in FLORES.read_text(encoding="utf-8").splitlines() if s.strip()]
    pipeline = subprocess.Popen(["bash", "-c", script, "bash", "-n", ""], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(n: int, start: int) -> None:
        def write() -> None:
            for k in range(n):
                pipeline.stdin.write(frames[(start + k) % len(frames)])
            pipeline.stdin.flush()
        writer = threading.Thread(target=write)
        writer.start()
        answered = 0
        while answered < n:
            answered += os.read(pipeline.stdout.fileno(), 1 << 16).count(b"\0")
        writer.join()

    run(warm, 0)
    before = stages(pipeline.pid)
    run(count, warm)
    after = stages(pipeline.pid)
    pipeline.stdin.close()
    pipeline.wait()
    print(f"{mode}: resident KB after {warm} frames and after {count} more (FLORES eng dev in turn)")
    for pid, (name, kb) in before.items():
        grown = after.get(pid, (name, kb))[1] - kb
        print(f"  {name:18} {kb:8} -> {kb + grown:8}   {grown * 1024 / count:7.1f} bytes/frame")
    total = sum(after[p][1] - before[p][1] for p in before if p in after)
    print(f"  all stages: {total} KB more, {total * 1024 / count:.1f} bytes per frame")


if __name__ == "__main__":
    main()
