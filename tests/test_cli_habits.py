"""Habits of the `glossa` command line that every command keeps, found from the binary itself
(its `--help` texts) and from the sources, so a command, a subcommand or an environment setting
added later is checked without touching this file:

- every command and subcommand answers `--help` (and `glossa help …`) with exit 0;
- unknown options and extra arguments are usage errors (exit 2, with a message), before any
  engine starts;
- every `GLOSSA_*` variable the product reads is in `glossa --help`, and a refused value stops
  the command at once with exit 2, naming the variable;
- invalid UTF-8 in an argument is exit 4, as on standard input.
"""
import os
import pathlib
import re
import socket
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
QUICK = 60  # seconds: none of these may start an engine


def glossa(glossa_bin, *args, env=None, timeout=QUICK):
    return subprocess.run([glossa_bin, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def commands(glossa_bin):
    """The command names listed under COMMANDS: in `glossa --help`."""
    text = glossa(glossa_bin, "--help").stdout
    section = text.split("COMMANDS:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in section.splitlines() if line.strip()]


def usage_lines(help_text):
    """The `glossa …` lines of a USAGE block (the first, and the indented ones after it)."""
    lines = help_text.splitlines()
    assert lines and lines[0].startswith("USAGE: glossa"), help_text[:200]
    block = [lines[0][len("USAGE: "):]]
    for line in lines[1:]:
        if not line.strip().startswith("glossa "):
            break
        block.append(line.strip())
    return block


def positional_limit(usage):
    """How many positional words a usage line allows: None for `TEXT ...` (any number)."""
    words = re.sub(r"\[--?[^\]]*\]", " ", usage).split()[1:]  # drop [--option ...] groups
    count = 0
    after_option = False
    for word in words:
        if "..." in word:
            return None
        if re.fullmatch(r"\[?[A-Z][A-Z_]*\]?", word) and not after_option:
            count += 1
        after_option = word.startswith("-")  # `--to LANG`: LANG is the option's value
    return count


def every_usage(glossa_bin):
    """(command words, usage line) for every command and subcommand."""
    found = []
    for command in commands(glossa_bin):
        if command == "help":
            continue
        text = glossa(glossa_bin, command, "--help").stdout
        lines = usage_lines(text)
        subcommands = {line.split()[2] for line in lines if len(line.split()) > 2
                       and re.fullmatch(r"[a-z][a-z-]*", line.split()[2])}
        if subcommands:
            for line in lines:
                found.append(((command, line.split()[2]), line))
        else:
            found.append(((command,), lines[0]))
    return found


def test_commands_are_found(glossa_bin):
    names = commands(glossa_bin)
    assert {"translate", "detect", "languages", "pairs", "roundtrip", "models", "serve", "help"} <= set(names)
    subcommands = {words for words, _ in every_usage(glossa_bin) if len(words) == 2}
    assert {("models", "install"), ("models", "list"), ("models", "remove")} <= subcommands


def test_every_command_and_subcommand_answers_help(glossa_bin):
    for words, _ in every_usage(glossa_bin):
        shown = glossa(glossa_bin, *words, "--help")
        assert shown.returncode == 0, (words, shown.stderr)
        assert shown.stdout.startswith("USAGE: glossa " + " ".join(words)), (words, shown.stdout[:200])
        assert "Exit codes" in shown.stdout, words
        assert glossa(glossa_bin, *words, "-h").stdout == shown.stdout, words
        via_help = glossa(glossa_bin, "help", *words)
        assert via_help.returncode == 0 and via_help.stdout == shown.stdout, words
    for command in {words[0] for words, _ in every_usage(glossa_bin)}:
        shown = glossa(glossa_bin, command, "--help")
        assert glossa(glossa_bin, "help", command).stdout == shown.stdout, command


def test_unknown_options_are_usage_errors(glossa_bin):
    for words, _ in every_usage(glossa_bin):
        refused = glossa(glossa_bin, *words, "--no-such-option")
        assert refused.returncode == 2, (words, refused.stdout[:200], refused.stderr)
        assert "--no-such-option" in refused.stderr, (words, refused.stderr)


def test_extra_arguments_are_usage_errors(glossa_bin):
    checked = 0
    for words, usage in every_usage(glossa_bin):
        limit = positional_limit(usage)
        if limit is None:
            continue
        extra = ["first-extra", "second-extra", "third-extra"][: limit + 1]
        refused = glossa(glossa_bin, *words, *extra)
        assert refused.returncode == 2, (words, extra, refused.stdout[:200], refused.stderr)
        assert extra[-1] in refused.stderr, (words, refused.stderr)
        checked += 1
    assert checked >= 5  # languages, pairs, serve, models install/list/remove at least


def test_top_level_errors_say_what_is_wrong(glossa_bin):
    for args, needle in [(["help", "bogus"], "unknown command 'bogus'"), (["bogus"], "unknown command 'bogus'"),
                         (["--help", "extra"], "'extra'"), (["--version", "extra"], "'extra'"),
                         (["models"], "subcommand"), (["models", "--no-such-option"], "--no-such-option"), (["models", "bogus"], "unknown subcommand 'bogus'"),
                         (["models", "install"], "PATH_OR_URL"), (["models", "remove"], "NAME")]:
        refused = glossa(glossa_bin, *args)
        assert refused.returncode == 2, (args, refused.stderr)
        assert needle in refused.stderr, (args, refused.stderr)
    assert glossa(glossa_bin, "help").returncode == 0
    assert glossa(glossa_bin, "--version").stdout.startswith("glossa ")


def test_invalid_utf8_in_an_argument_is_exit_4(glossa_bin):
    for args, position in [([b"translate", b"-f", b"en", b"-t", b"es", b"bad \xff\xfe text"], 6),
                           ([b"detect", b"caf\xe9"], 2), ([b"translate", b"--to", b"\xc3"], 3)]:
        p = subprocess.run([glossa_bin.encode(), *args], capture_output=True, timeout=QUICK)
        assert p.returncode == 4, (args, p.stderr)
        assert f"argument {position} is not valid UTF-8" in p.stderr.decode(), p.stderr
        assert p.stdout == b"", "nothing is translated"


# --- environment ---------------------------------------------------------------------------

def variables_read_by_the_product():
    """Every "GLOSSA_*" string literal under Sources/ (Swift and C), but the SDK's (TranslationKit,
    documented in the README) and the test-only tools."""
    names = set()
    for path in (REPO / "Sources").rglob("*"):
        if path.suffix not in {".swift", ".c", ".h"} or "TranslationKit" in path.parts:
            continue
        names.update(re.findall(r'"(GLOSSA_[A-Z0-9_]+)"', path.read_text(encoding="utf-8", errors="replace")))
    return names


def environment_section(text):
    section = text.split("ENVIRONMENT:\n", 1)[1].split("\n\n", 1)[0]
    return {line.split()[0] for line in section.splitlines() if line.startswith("  ") and line.split()[0].isupper()}


def test_every_setting_the_product_reads_is_in_help(glossa_bin):
    read = variables_read_by_the_product()
    assert {"GLOSSA_PREWARM", "GLOSSA_PREFER", "GLOSSA_FLOAT_GEMM", "GLOSSA_INT8_KERNEL"} <= read
    listed = environment_section(glossa(glossa_bin, "--help").stdout)
    assert read <= listed, f"read by the code but not in `glossa --help`: {sorted(read - listed)}"
    assert "GLOSSA_PREWARM" in environment_section(glossa(glossa_bin, "serve", "--help").stdout)


def test_sdk_settings_are_in_the_readme():
    names = set()
    for path in (REPO / "Sources" / "TranslationKit").rglob("*.swift"):
        names.update(re.findall(r'"(GLOSSA_[A-Z0-9_]+)"', path.read_text(encoding="utf-8")))
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert names and all(name in readme for name in names), sorted(n for n in names if n not in readme)


REFUSED = {
    "GLOSSA_PREFER": "rule",
    "GLOSSA_PREWARM": "eng-spa,not a pair",
    "GLOSSA_FLOAT_GEMM": "blas",
    "GLOSSA_INT8_KERNEL": "vnni512",
    "GLOSSA_APERTIUM_MODES": "/no/such/directory",
    "GLOSSA_APERTIUM_TAGGER": "/no/such/tagger",
    "GLOSSA_PIPELINES": "0",
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_refused_setting_stops_serve_at_once(glossa_bin, name):
    p = glossa(glossa_bin, "serve", "--port", "0", env={name: REFUSED[name]})
    assert p.returncode == 2, p.stderr
    assert name in p.stderr and REFUSED[name] in p.stderr, p.stderr
    assert "listening" not in p.stdout and "warm" not in p.stderr, "refused before anything starts"


def test_settings_are_checked_by_the_commands_that_read_them(glossa_bin):
    p = glossa(glossa_bin, "translate", "-f", "en", "-t", "es", "Hello", env={"GLOSSA_FLOAT_GEMM": "blas"})
    assert p.returncode == 2 and "GLOSSA_FLOAT_GEMM" in p.stderr and p.stdout == ""
    p = glossa(glossa_bin, "pairs", env={"GLOSSA_PREFER": "Neural!"})
    assert p.returncode == 2 and "GLOSSA_PREFER" in p.stderr
    # detect builds no engine, so engine settings do not concern it; help needs no settings.
    assert glossa(glossa_bin, "detect", "Hello there", env={"GLOSSA_FLOAT_GEMM": "blas"}).returncode == 0
    assert glossa(glossa_bin, "translate", "--help", env={"GLOSSA_FLOAT_GEMM": "blas"}).returncode == 0
    # Accepted values and empty ones (empty means unset) pass.
    for env in [{"GLOSSA_FLOAT_GEMM": "openblas", "GLOSSA_INT8_KERNEL": "avx2"}, {"GLOSSA_PREFER": ""},
                {"GLOSSA_PREFER": "apertium", "GLOSSA_FLOAT_GEMM": "packed", "GLOSSA_INT8_KERNEL": "auto"}]:
        p = glossa(glossa_bin, "translate", "-f", "en", "-t", "es", "Good morning", env=env, timeout=120)
        assert p.returncode == 0 and "Buenos días" in p.stdout, (env, p.stderr)


def test_prewarm_naming_a_pair_not_installed_is_refused(glossa_bin):
    p = glossa(glossa_bin, "serve", "--port", "0", env={"GLOSSA_PREWARM": "eng-spa,jpn-kor"}, timeout=120)
    if p.returncode == 2 and "not accepted" in p.stderr:
        pytest.fail("the syntax is valid; only the pair is missing: " + p.stderr)
    assert p.returncode == 2, p.stderr
    assert "GLOSSA_PREWARM names jpn-kor," in p.stderr and "listening" not in p.stdout


# --- serve's order of checks -----------------------------------------------------------------

def test_serve_checks_its_address_before_the_warm_up(glossa_bin):
    """A busy port fails before any pipeline starts, even when every pair is to be warmed."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        p = glossa(glossa_bin, "serve", "--port", str(port), env={"GLOSSA_PREWARM": "all"}, timeout=120)
    assert p.returncode == 1, p.stderr
    assert "Address already in use" in p.stderr and str(port) in p.stderr
    assert "warm" not in p.stderr, "the warm-up must not start before the address is bound: " + p.stderr


def test_serve_host_takes_numeric_addresses_and_localhost(glossa_bin):
    p = glossa(glossa_bin, "serve", "--host", "example.org", "--port", "0")
    assert p.returncode == 2 and "numeric" in p.stderr and "localhost" in p.stderr
    assert "or localhost" in glossa(glossa_bin, "serve", "--help").stdout
    proc = subprocess.Popen([glossa_bin, "serve", "--host", "localhost", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "GLOSSA_PREWARM": "none"})
    try:
        line = proc.stdout.readline()
        assert re.match(r"glossa serve: listening on http://localhost:\d+", line), line
    finally:
        proc.terminate()
        assert proc.wait(timeout=180) == 0


def test_glossa_neural_check_states_its_arguments(glossa_bin):
    """docs/neural-engine.md cites `glossa-neural-check --bench` for figures: its usage gives the
    six arguments, with --help (exit 0) and when they are missing (exit 1)."""
    tool = os.path.join(os.path.dirname(glossa_bin), "glossa-neural-check")
    if not os.access(tool, os.X_OK):
        pytest.skip(f"glossa-neural-check is not built beside glossa ({tool})")
    shown = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=QUICK)
    assert shown.returncode == 0 and "--bench MODEL_DIR BATCH BEAM THREADS LENGTH REPEATS" in shown.stdout
    assert "make_models.py DIR --bench" in shown.stdout
    missing = subprocess.run([tool, "--bench", "model"], capture_output=True, text=True, timeout=QUICK)
    assert missing.returncode == 1
    assert "six arguments, got 1" in missing.stderr and "BATCH BEAM THREADS LENGTH REPEATS" in missing.stderr
