"""What the instruction benchmarks (bench_instructions.py, bench_neural_instructions.py) share:
a binary valgrind can read, and a callgrind output file's program and instruction count."""
import os
import shutil
import subprocess


def stripped_copy(source: str, destination: str) -> str:
    """A copy of `source` at `destination` without debug info (the same machine code): valgrind
    3.19 cannot read the DWARF 5 forms Swift's clang writes and gives up on the binary."""
    shutil.copy2(source, destination + ".tmp")
    subprocess.run(["strip", "--strip-debug", destination + ".tmp"], check=True)
    os.replace(destination + ".tmp", destination)
    return destination


def program_and_instructions(path: str) -> tuple[str | None, int | None]:
    """The command a callgrind file counted (its `cmd:` line) and its instructions (`summary:` or
    `totals:`), read from the file's header only."""
    command, count = None, None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("cmd:"):
                command = line[4:].strip()
            elif line.startswith(("summary:", "totals:")):
                count = max(count or 0, int(line.split()[1]))
            elif line.startswith("fn="):
                break
    return command, count
