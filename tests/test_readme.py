"""The README's examples are its test fixtures. Every fenced block in README.md carries, on the
line before it, a marker that says how it is checked:

  <!-- readme-check: console[, server][, neural][; not run: CMD (why)] -->
      each `$ ` line runs in bash with the built `glossa` first on the PATH and must exit 0; the
      lines after it are its standard output, compared exactly, except that `…` in a line stands
      for any text and a line of only `…` for any number of lines. A command shown without output
      is run and must succeed. `server`: 127.0.0.1:8080 is a `glossa serve` this test starts on a
      free port. `neural`: $HOME/Downloads holds the generated Argos package
      (tests/tools/make_models.py) that the block installs. `not run:` names commands that run
      until stopped (`glossa serve`), which the server tests start themselves.
  <!-- readme-check: python, server -->   the snippet runs against the server and must not raise.
  <!-- readme-check: swift TEST_FILE -->  the snippet is the marked region of TEST_FILE (which
      `swift test` compiles and runs), line for line, less the lines marked `// test only`.
  <!-- readme-check: none (why) -->       not run here, and the marker says why.

So a README edit that adds a block must say how it is checked, and a change of behaviour that
makes a documented output false fails here.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from glossa_server import glossa_binary, server  # noqa: F401  (the fixture)

REPO = pathlib.Path(__file__).resolve().parent.parent
README = REPO / "README.md"
TIMEOUT = 600  # seconds per command: a debug build on a loaded 2-core machine
BLOCK = re.compile(r"^(?P<marker>[^\n]*)\n```(?P<lang>[\w-]*)\n(?P<body>.*?)^```$", re.M | re.S)
MARKER = re.compile(r"<!-- readme-check: (?P<how>.*?) -->")


def blocks():
    """(marker text or None, language, body, line number) of every fenced block."""
    text = README.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        marker = MARKER.fullmatch(match.group("marker").strip())
        line = text.count("\n", 0, match.start("lang")) + 1
        found.append((marker.group("how") if marker else None, match.group("lang"), match.group("body"), line))
    return found


def test_every_block_says_how_it_is_checked():
    unmarked = [f"README.md:{line} ```{lang}" for how, lang, _, line in blocks() if how is None]
    assert not unmarked, "blocks without a <!-- readme-check: … --> marker: " + ", ".join(unmarked)
    for how, _, _, line in blocks():
        if how.startswith("none"):
            assert re.fullmatch(r"none \(.+\)", how), f"README.md:{line}: `none` must say why: {how}"


def marked(kind):
    return [(how, body, line) for how, _, body, line in blocks() if how and how.split(",")[0].split(";")[0].split()[0] == kind]


def commands(body):
    """(command, expected output lines) of a console block."""
    steps = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"output before any command: {line!r}"
            steps[-1][1].append(line)
    return steps


def pattern(expected):
    """A regex for the expected lines: `…` any text in a line, a line of `…` any lines."""
    parts = []
    for line in expected:
        if line.strip() == "…":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*".join(re.escape(piece) for piece in line.rstrip().split("…")) + r"[ \t]*\n")
    return re.compile("".join(parts))


def test_the_pattern_rules():
    assert pattern(["a…c", "…", "z"]).fullmatch("abc\n1\n2\nz\n")
    assert pattern(["a…c", "…", "z"]).fullmatch("ac\nz\n")
    assert not pattern(["abc"]).fullmatch("abc\nmore\n")
    assert not pattern(["a…c"]).fullmatch("ab\nc\n")


@pytest.fixture(scope="module")
def argos_package():
    out = pathlib.Path(os.environ.get("TEST_OUTPUT", REPO / "test-output")) / "neural" / "models"
    package = out / "translate-en_de-1_0.argosmodel"
    if not package.exists():
        flores = pathlib.Path(os.environ.get("GLOSSA_FLORES_DIR", REPO.parent / "shared" / "data" / "flores200-dev"))
        if not flores.is_dir():
            pytest.skip(f"the generated Argos package needs FLORES-200 dev at {flores} (../shared/data)")
        subprocess.run([sys.executable, str(REPO / "tests" / "tools" / "make_models.py"), str(out)], check=True,
                       stdout=subprocess.DEVNULL)
    return package


def run_console(how, body, line, tmp_path, url=None, package=None):
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    if package:
        shutil.copy(package, home / "Downloads" / package.name)
    binary = glossa_binary()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GLOSSA_") and k != "XDG_DATA_HOME"}
    env.update(HOME=str(home), LC_ALL="C.UTF-8", PATH=os.path.dirname(binary) + os.pathsep + env["PATH"])
    not_run = re.findall(r"not run: ([^(;]+?) \(", how)
    ran = 0
    for command, expected in commands(body):
        if any(command.startswith(skip) or f" {skip}" in command for skip in not_run):
            continue
        if url:
            command = command.replace("http://127.0.0.1:8080", url)
        # curl without -s prints a progress meter on stderr; only stdout is compared.
        done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env, timeout=TIMEOUT,
                              cwd=tmp_path)
        assert done.returncode == 0, f"README.md:{line}: `{command}` exited {done.returncode}: {done.stderr[-2000:]}"
        output = "\n".join(l.rstrip() for l in done.stdout.splitlines()) + ("\n" if done.stdout else "")
        if expected:
            assert pattern(expected).fullmatch(output), (
                f"README.md:{line}: `{command}` printed\n{output}\nwhere the README shows\n" + "\n".join(expected))
        ran += 1
    assert ran, f"README.md:{line}: no command was run"


def console_blocks(*, server: bool, neural: bool):
    chosen = []
    for how, body, line in marked("console"):
        flags = {f.strip() for f in how.split(";")[0].split(",")}
        if ("server" in flags) == server and ("neural" in flags) == neural:
            chosen.append(pytest.param(how, body, line, id=f"README.md:{line}"))
    return chosen


@pytest.mark.parametrize("how, body, line", console_blocks(server=False, neural=False))
def test_console_block(how, body, line, tmp_path):
    run_console(how, body, line, tmp_path)


@pytest.mark.parametrize("how, body, line", console_blocks(server=True, neural=False))
def test_console_block_against_a_server(how, body, line, tmp_path, server):
    run_console(how, body, line, tmp_path, url=server.url)


@pytest.mark.parametrize("how, body, line", console_blocks(server=False, neural=True))
def test_console_block_with_a_model(how, body, line, tmp_path, argos_package):
    run_console(how, body, line, tmp_path, package=argos_package)


@pytest.mark.parametrize("how, body, line", [pytest.param(*b, id=f"README.md:{b[2]}") for b in marked("python")])
def test_python_block(how, body, line, tmp_path, server):
    assert "server" in how
    script = tmp_path / "snippet.py"
    script.write_text(body.replace("http://127.0.0.1:8080", server.url), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"README.md:{line}: the Python example failed:\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("how, body, line", [pytest.param(*b, id=f"README.md:{b[2]}") for b in marked("swift")])
def test_swift_block_is_the_test_that_runs_it(how, body, line):
    path = REPO / how.split()[1]
    source = path.read_text(encoding="utf-8")
    region = source.split("// README begin\n", 1)[1].split("// README end\n", 1)[0]
    kept = [l.strip() for l in region.splitlines() if not l.rstrip().endswith("// test only")]
    shown = [l.strip() for l in body.replace('"http://127.0.0.1:8080"', "url").splitlines()]
    assert shown == kept, f"README.md:{line} is not the region of {path.name} (less `// test only` lines)"


@pytest.mark.parametrize("target", ["bench", "detect-testdata", "detector-profiles", "detect-accuracy"])
def test_the_targets_that_read_flores_stop_at_once_without_it(target, tmp_path):
    """The README says these need FLORES-200 dev in ../shared/data: without it, a clear error and
    a non-zero exit before anything is built or installed."""
    empty = tmp_path / "no-flores"
    empty.mkdir()
    done = subprocess.run(["make", "--no-print-directory", target, f"FLORES_DIR={empty}",
                           f"DETECT_TESTDATA={REPO}/.build/detector-model/testdata"
                           if target != "detect-accuracy" else f"DETECT_TESTDATA={tmp_path}/none"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    expected = f"No test data at {tmp_path}/none" if target == "detect-accuracy" else f"No FLORES-200 dev at {empty}"
    assert expected in done.stderr, done.stderr[-500:]
    assert "Compiling" not in done.stdout and "apt-get" not in done.stdout
