"""For every installed mode with an apertium-tagger stage: does glossa-apertium-tagger -z answer
each request exactly as a fresh stock apertium-tagger does on it alone, on a first and a second
pass? And does the stock tagger -z (the state it keeps is described in
Sources/glossa-apertium-tagger/main.cpp)? Input: 30 English and 30 Spanish FLORES-200 dev lines,
run through the stages before the tagger in -z mode.

Usage: python3 tests/tools/tagger_reset_check.py [PATH/TO/glossa-apertium-tagger]
Prints one line per mode: the lines where the resetting tagger differs (must be 0), and where the
stock -z tagger differs on the second pass."""
import glob
import os
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
TAGGER = sys.argv[1] if len(sys.argv) > 1 else str(REPO / ".build" / "debug" / "glossa-apertium-tagger")
FLORES = REPO.parent / "shared" / "data" / "flores200-dev"
LINES = [l for name in ("eng_Latn", "spa_Latn") for l in (FLORES / f"{name}.dev").read_text().splitlines()[:30]]


def deformat(line: str) -> bytes:
    return ("".join("\\" + c if c in "[]\\/@<>^${}" else c for c in line) + ".[]").encode()


def run(command: str, data: bytes) -> bytes:
    return subprocess.run(["bash", "-c", command], input=data, capture_output=True, timeout=120).stdout


def main() -> None:
    frames = b"".join(deformat(l) + b"\0" for l in LINES)
    failing = []
    for mode in sorted(glob.glob("/usr/share/apertium/modes/*.mode")):
        command = subprocess.run(["apertium-wblank-mode", "-z", mode], capture_output=True, text=True).stdout.strip()
        stages = [s.strip().replace("$1", "-g").replace("$2", "") for s in command.split(" | ")]
        at = next((i for i, s in enumerate(stages) if s.startswith("apertium-tagger ")), None)
        if at is None:
            continue
        name = os.path.basename(mode)
        analysed = run(" | ".join(stages[:at]), frames).split(b"\0")[:len(LINES)]
        if len(analysed) < len(LINES):
            print(f"{name}: the stages before the tagger do not answer (a broken mode)")
            continue
        twice = b"".join(a + b"\0" for a in analysed) * 2
        ours = run(stages[at].replace("apertium-tagger ", f"'{TAGGER}' ", 1), twice).split(b"\0")
        stock = run(stages[at], twice).split(b"\0")
        ours_differ = stock_differ = 0
        for i, frame in enumerate(analysed):
            fresh = run(stages[at].replace(" -z", ""), frame)
            ours_differ += ours[i] != fresh or ours[len(LINES) + i] != fresh
            stock_differ += stock[len(LINES) + i] != fresh
        print(f"{name}: glossa-apertium-tagger differs on {ours_differ}, stock -z on {stock_differ} of {len(LINES)}", flush=True)
        if ours_differ:
            failing.append(name)
    print("modes where glossa-apertium-tagger differs:", failing or "none")
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
