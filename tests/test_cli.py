"""The `glossa` CLI, run as a user runs it: the built binary over the real Apertium pairs."""
import json
import select
import subprocess

import pytest

COMMANDS = ["translate", "detect", "languages", "pairs", "modes", "roundtrip", "serve", "models"]


def out(p):
    return p.stdout.decode()


def err(p):
    return p.stderr.decode()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_exit_codes(run, command):
    p = run(command, "--help")
    assert p.returncode == 0, err(p)
    assert "USAGE: glossa " + command in out(p)
    assert run("help", command).stdout == p.stdout


def test_top_level_help_and_usage_errors(run):
    assert run("--help").returncode == 0
    assert "Exit codes" in out(run("--help"))
    assert run().returncode == 2
    p = run("frobnicate")
    assert p.returncode == 2 and "unknown command" in err(p)
    p = run("translate", "--to", "es", "--colour", "x")
    assert p.returncode == 2 and "--colour" in err(p)
    p = run("translate", "hello")
    assert p.returncode == 2 and "--to" in err(p)


def test_translate_arguments(run):
    p = run("translate", "--from", "en", "--to", "es", "Good morning", "How are you?")
    assert p.returncode == 0, err(p)
    lines = out(p).splitlines()
    assert len(lines) == 2
    assert "Buenos días" in lines[0]


def test_translate_detects_the_source_when_from_is_omitted(run):
    p = run("translate", "--to", "es", "--json", "Good morning, how are you today?")
    assert p.returncode == 0, err(p)
    result = json.loads(out(p))
    assert result["source"] == "en"
    assert "Buenos días" in result["translatedText"]
    assert result["detectedConfidence"] > 0


def test_translate_stdin_one_line_in_one_line_out(run):
    text = "Good morning\n\nThe house is red.\nI like cats.\n"
    p = run("translate", "--from", "eng", "--to", "spa", stdin=text.encode())
    assert p.returncode == 0, err(p)
    lines = out(p).split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    assert len(lines) == 4
    assert "Buenos días" in lines[0]
    assert lines[1] == ""
    assert "casa" in lines[2]
    assert "gatos" in lines[3]


def test_translate_streams_before_stdin_closes(glossa_bin):
    """A line typed is translated at once, while stdin is still open."""
    proc = subprocess.Popen([glossa_bin, "translate", "-f", "en", "-t", "es"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for sentence, expected in [("Good morning\n", "Buenos días"), ("The house\n", "casa")]:
            proc.stdin.write(sentence.encode())
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, "no output while stdin is open: input is not streamed"
            assert expected in proc.stdout.readline().decode()
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_translate_json_shape(run):
    p = run("translate", "-f", "en", "-t", "es", "--json", "Good morning")
    assert p.returncode == 0, err(p)
    result = json.loads(out(p))
    assert set(result) >= {"translatedText", "sourceText", "source", "target", "route", "engines"}
    assert result["route"] == ["en", "es"]
    assert result["engines"] == ["apertium"]


def test_pivot_route_is_reported(run):
    p = run("translate", "-f", "en", "-t", "pt", "--json", "The house is red.")
    assert p.returncode == 0, err(p)
    result = json.loads(out(p))
    assert result["route"] == ["en", "es", "pt"]
    assert "casa" in result["translatedText"]
    p = run("translate", "-f", "es", "-t", "ca", "--json", "La casa es roja.")
    assert json.loads(out(p))["route"] == ["es", "ca"]


def test_html_keeps_tags(run):
    p = run("translate", "-f", "en", "-t", "es", "--format", "html", "<p>Hello <b>world</b></p>")
    assert p.returncode == 0, err(p)
    text = out(p)
    assert text.startswith("<p>") and "<b>" in text and "</b>" in text and text.rstrip().endswith("</p>")
    assert "Hola" in text


def test_empty_text_gives_empty_output(run):
    p = run("translate", "-f", "en", "-t", "es", "")
    assert p.returncode == 0, err(p)
    assert out(p) == "\n"


def test_unknown_language_is_exit_3_and_says_what_is_accepted(run):
    p = run("translate", "--to", "xx", "hello")
    assert p.returncode == 3
    assert "'xx'" in err(p) and "Accepted" in err(p)


def test_unsupported_pair_lists_what_is_available(run):
    p = run("translate", "-f", "en", "-t", "ja", "hello")
    assert p.returncode == 3
    assert "es" in err(p) and "available" in err(p)


def test_invalid_utf8_names_the_line(run):
    p = run("translate", "-f", "en", "-t", "es", stdin=b"Good morning\nbad \xff\xfe bytes\nmore\n")
    assert p.returncode == 4
    assert "line 2" in err(p)
    assert "Buenos días" in out(p), "lines before the bad one are still translated"


def test_detect(run):
    p = run("detect", "Hello there!!!", "Buenos días, ¿cómo estás?")
    assert p.returncode == 0, err(p)
    lines = [line.split("\t") for line in out(p).splitlines()]
    assert lines[0][0] == "en" and lines[0][1] == "English"
    assert lines[1][0] == "es"
    p = run("detect", "--json", stdin="Bonjour tout le monde, comment ça va ?\n\n".encode())
    rows = [json.loads(line) for line in out(p).splitlines()]
    assert len(rows) == 2
    assert rows[0]["language"] == "fr" and 0 < rows[0]["confidence"] <= 1
    assert rows[1]["language"] == "und" and rows[1]["name"] == "unknown" and rows[1]["confidence"] == 0
    p = run("detect", "--json", "")
    assert p.returncode == 0 and json.loads(out(p))["language"] == "und", "as the help says: und"
    assert out(run("detect", "")).split("\t")[0] == "und"


def test_languages_localized(run):
    p = run("languages", "--target", "es")
    assert p.returncode == 0, err(p)
    names = dict(line.split("\t") for line in out(p).splitlines())
    assert names["en"] == "inglés"
    assert names["ca"] == "catalán"
    rows = json.loads(out(run("languages", "--json")))
    assert {"language": "es", "name": "Spanish", "from": True, "into": True} in rows


def test_pairs_direct_and_pivot(run):
    p = run("pairs", "--json")
    assert p.returncode == 0, err(p)
    rows = json.loads(out(p))
    direct = {(r["source"], r["target"]) for r in rows if r["kind"] == "direct"}
    assert ("en", "es") in direct and ("es", "ca") in direct
    pivots = [r for r in rows if r["kind"] == "pivot"]
    assert any(r["source"] == "en" and r["target"] == "pt" and r["path"] == ["en", "es", "pt"] for r in pivots)
    text = out(run("pairs"))
    assert "direct" in text and "pivot via" in text


def test_roundtrip(run):
    p = run("roundtrip", "--via", "es", "--from", "en", "--json", "The cat sat on the mat.")
    assert p.returncode == 0, err(p)
    steps = [json.loads(line) for line in out(p).splitlines()]
    assert steps[0] == {"step": 0, "language": "en", "text": "The cat sat on the mat."}
    assert steps[1]["language"] == "es"
    assert 2 <= len(steps) <= 51
    assert [s["step"] for s in steps] == list(range(len(steps)))


def test_two_runs_over_a_file_agree_with_apertium_line_by_line(run):
    """Two identical runs of es→fr over FLORES used to disagree (apertium-tagger kept state);
    each must now give every line exactly as `apertium -u es-fr` gives it alone."""
    from conftest import SHARED
    source = SHARED / "data" / "flores200-dev" / "spa_Latn.dev"
    if not source.exists():
        pytest.skip(f"FLORES-200 dev is not at {source}")
    lines = source.read_text().splitlines()[:400]
    text = ("\n".join(lines) + "\n").encode()
    first = run("translate", "--from", "es", "--to", "fr", stdin=text, timeout=600)
    second = run("translate", "--from", "es", "--to", "fr", stdin=text, timeout=600)
    assert first.returncode == 0 and second.returncode == 0, err(first) + err(second)
    assert first.stdout == second.stdout
    answers = out(first).split("\n")
    for index in range(0, len(lines), 40):
        raw = subprocess.run(["apertium", "-u", "es-fr"], input=lines[index].encode(), capture_output=True, timeout=120)
        assert answers[index] == raw.stdout.decode(), f"line {index}: {lines[index]}"


def test_every_language_glossa_lists_has_a_name_of_its_own(glossa_bin):
    """`glossa languages` (and every protocol's list, which reads the same names) never gives two
    codes one name: variants are named (Catalan (Valencian), Serbo-Croatian (Croatian))."""
    for display in ["en", "es"]:
        listed = subprocess.run([glossa_bin, "languages", "--target", display], capture_output=True, text=True,
                                timeout=300)
        assert listed.returncode == 0, listed.stderr
        names = {}
        for line in listed.stdout.splitlines():
            code, name = line.split("\t")
            names.setdefault(name, []).append(code)
        shared = {name: codes for name, codes in names.items() if len(codes) > 1}
        assert not shared, f"codes sharing a name in {display}: {shared}"


def test_translate_stops_at_once_when_its_reader_goes_away(glossa_bin, tmp_path):
    """`glossa translate … | head -1`: once the reader has closed the pipe, glossa stops
    translating the rest and exits with the documented 141, leaving no child process."""
    import os
    import time
    words = "the house is big and the cat sleeps on the red chair while my friend reads".split()
    lines = [" ".join(words[(i * 5 + k) % len(words)] for k in range(12)) for i in range(20000)]
    source = tmp_path / "many-lines.txt"
    source.write_text("\n".join(lines) + "\n")
    with open(source, "rb") as stdin:
        proc = subprocess.Popen([glossa_bin, "translate", "--from", "en", "--to", "es"], stdin=stdin,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = proc.stdout.readline()
        assert first.strip(), proc.stderr.read()
        kids = [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(int(p)) == proc.pid]
        proc.stdout.close()
        start = time.monotonic()
        status = proc.wait(timeout=60)
        stopped_after = time.monotonic() - start
    assert status == 141, proc.stderr.read()
    # Translating the other 19,999 lines takes far longer than this on any machine.
    assert stopped_after < 3, f"glossa went on for {stopped_after:.1f} s after its reader closed the pipe"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(os.path.exists(f"/proc/{k}") for k in kids):
        time.sleep(0.1)
    assert not [k for k in kids if os.path.exists(f"/proc/{k}") and _state(k) != "Z"]


def _parent(pid):
    try:
        return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def _state(pid):
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_help_documents_the_closed_output_exit_code(run):
    assert "141" in out(run("--help")) and "141" in out(run("translate", "--help"))
