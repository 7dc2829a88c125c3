"""Apertium's null-flush pipeline as Glossa runs it, for the benchmarks that measure the stages
themselves (pipeline_growth.py, apertium_frames.py): the mode's `apertium-wblank-mode -z` script
with apertium-tagger replaced by glossa-apertium-tagger, FLORES-200 dev sentences as frames."""
import os
import pathlib
import subprocess
import threading

REPO = pathlib.Path(__file__).resolve().parent.parent
FLORES = REPO.parent / "shared" / "data" / "flores200-dev" / "eng_Latn.dev"
TAGGER = os.environ.get("GLOSSA_APERTIUM_TAGGER", str(REPO / ".build" / "release" / "glossa-apertium-tagger"))
SPECIAL = set("[]^$@/<>{}\\*#")


def deformat(sentence: str) -> str:
    """A sentence as Apertium's text deformatter gives it: specials escaped, closed by `.[]`."""
    return "".join("\\" + c if c in SPECIAL else c for c in sentence) + ".[]"


def frame(sentence: str) -> bytes:
    """One sentence as one NUL-terminated frame."""
    return (deformat(sentence) + "\0").encode()


def sentences() -> list[str]:
    return [s for s in FLORES.read_text(encoding="utf-8").splitlines() if s.strip()]


def script(mode: str) -> str:
    """The mode's pipeline with -z on every stage and Glossa's resetting tagger (when built)."""
    text = subprocess.run(["apertium-wblank-mode", "-z", f"/usr/share/apertium/modes/{mode}.mode"],
                          capture_output=True, text=True, check=True).stdout
    if not os.path.exists(TAGGER):
        return text
    return " | ".join(TAGGER + s.strip()[len("apertium-tagger"):] if s.strip().startswith("apertium-tagger") else s
                      for s in text.split(" | "))


def start(mode: str) -> subprocess.Popen:
    """The pipeline, unknown words unmarked (`$1` = -n), as `glossa serve` starts it."""
    return subprocess.Popen(["bash", "-c", script(mode), "bash", "-n", ""], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def stages(parent: int) -> dict[int, tuple[str, int, float]]:
    """The pipeline's stages: pid -> (name, resident KB, CPU seconds so far)."""
    with open(f"/proc/{parent}/task/{parent}/children") as f:
        pids = [int(p) for p in f.read().split()]
    out = {}
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        with open(f"/proc/{pid}/statm") as f:
            resident_pages = int(f.read().split()[1])
        fields = stat[stat.rindex(")") + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        out[pid] = (stat[stat.index("(") + 1:stat.rindex(")")], resident_pages * os.sysconf("SC_PAGESIZE") // 1024, cpu)
    return out


def read_answers(pipeline: subprocess.Popen, count: int) -> None:
    """Reads until `count` NUL-terminated answers have come back."""
    answered = 0
    while answered < count:
        answered += os.read(pipeline.stdout.fileno(), 1 << 16).count(b"\0")


def stream(pipeline: subprocess.Popen, frames: list[bytes]) -> None:
    """Writes every frame at once (from a thread, so the pipe never blocks both ends) and reads
    all their answers."""
    def write() -> None:
        for f in frames:
            pipeline.stdin.write(f)
        pipeline.stdin.flush()
    writer = threading.Thread(target=write)
    writer.start()
    read_answers(pipeline, len(frames))
    writer.join()
