"""The live processes of this machine, read from /proc, for tests that look at a server's children."""
import os
from typing import NamedTuple


class Process(NamedTuple):
    pid: int
    parent: int
    name: str


def live_processes() -> list[Process]:
    """Every process but zombies (and those that end while being read)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()
        except OSError:
            continue
        # The name is in parentheses and may hold spaces or parentheses itself: split after the last.
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            found.append(Process(int(entry), int(fields[1]), stat[stat.index("(") + 1:stat.rindex(")")]))
    return found


def command_line(pid: int) -> str:
    """`pid`'s arguments joined by spaces; empty once it has ended."""
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""
