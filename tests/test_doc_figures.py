"""Every figure in README.md and docs/ says where it came from. A paragraph (or table) that gives
a measured figure (a percentage, a time, a rate, a ratio, cycles, or a table of numbers) must
name, in itself, the table's lead-in paragraph or its section heading, the command that
reproduces it (in backticks: `make …`, `python …`, `.build/…`, `glossa …`, `swift …`); a speed,
time or memory figure must also name the machine it ran on (its CPU or "machine"). A figure
that no command reproduces is removed, not kept."""
import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

NUMBER = r"\d[\d,]*(?:\.\d+)?"
# Figures that depend on nothing but the code and the data (accuracy, shares of outputs).
FIGURE = re.compile(rf"{NUMBER}\s?%|\b{NUMBER}\s?(?:×(?!\w)|ms\b|s\b|req/s|words/s|tokens/s|texts/s|characters/s|cycles)")
# Figures that depend on the machine as well.
SPEED = re.compile(rf"\b{NUMBER}\s?(?:×(?!\w)|ms\b|s\b|req/s|words/s|tokens/s|texts/s|characters/s|cycles|MiB)|\bratio|tokens/s|req/s")
TABLE_NUMBER = re.compile(rf"\|\s*\**{NUMBER}(?:\s?[%×])?\**\s*(?=\|)")
COMMAND = re.compile(r"`(?:[A-Z0-9_]+=\S+ )*(?:make |python3? |\.build/|glossa[ -]|swift |bench/)[^`]*`")
MACHINE = re.compile(r"machine|\bCPU|Xeon|EPYC|Zen")


def paragraphs(path):
    """(heading, lead-in paragraph or '', paragraph, line) for each paragraph outside code blocks."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    heading, previous, found = "", "", []
    line = 1
    for block in re.split(r"(\n\s*\n)", text):
        if not block.strip() or block.strip() == "":
            line += block.count("\n")
            continue
        start = line + (len(block) - len(block.lstrip("\n")))
        if block.lstrip().startswith("#"):
            heading = block.strip().splitlines()[0]
            rest = "\n".join(block.strip().splitlines()[1:])
            block = rest
        if block.strip():
            lead = previous if block.lstrip().startswith("|") else ""
            found.append((heading, lead, block, start))
            previous = block
        line += block.count("\n")
    return found


# A number that is a setting or a limit, not a measurement: "at most 5 ms", "default 4096".
SETTING = re.compile(r"(?:at most|up to|default|defaults to|limit of|over|after|every|within)\s*$", re.I)


def measured(paragraph):
    """The figures of a paragraph that are measurements (settings and limits left out)."""
    return [m.group(0) for m in FIGURE.finditer(paragraph) if not SETTING.search(paragraph[max(0, m.start() - 20):m.start()])]


def offenders(path):
    bad = []
    for heading, lead, paragraph, line in paragraphs(path):
        is_table = paragraph.lstrip().startswith("|")
        # A table of settings (a "default" column) gives values, not measurements.
        settings_table = is_table and "default" in paragraph.lstrip().splitlines()[0].lower()
        figures = measured(paragraph) + (TABLE_NUMBER.findall(paragraph) if is_table and not settings_table else [])
        if not figures:
            continue
        context = "\n".join([heading, lead, paragraph])
        where = f"{path.relative_to(REPO)}:{line}: {paragraph.strip()[:90]!r}"
        if not COMMAND.search(context):
            bad.append(f"{where}: figures {figures[:3]} name no command")
        elif (SPEED.search(paragraph) or (is_table and SPEED.search(lead + heading))) and not MACHINE.search(context):
            bad.append(f"{where}: speed figures {figures[:3]} name no machine")
    return bad


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_figure_names_its_command_and_machine(path):
    bad = offenders(path)
    assert not bad, "\n".join(bad)


def test_the_rule_catches_a_bare_figure(tmp_path):
    doc = tmp_path / "x.md"
    doc.write_text("# T\n\nIt is 4.5× faster.\n\nOne run of `make bench` on the machine: 3 ms.\n\n"
                   "| a | b |\n| --- | --- |\n| x | 1.20 |\n\nIt waits at most 5 ms.\n\n"
                   "| setting | default |\n| --- | --- |\n| X | 4096 |\n", encoding="utf-8")
    global REPO
    saved, REPO = REPO, tmp_path
    try:
        bad = offenders(doc)
    finally:
        REPO = saved
    assert len(bad) == 1 and "4.5×" in bad[0]
