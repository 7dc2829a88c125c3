"""Differential tests: Debian's apertium-apy and Glossa, started here on 127.0.0.1 over the same
pairs and analysis modes, get the same requests; their answers must be equal as JSON (byte
formatting may differ), errors included, for every endpoint and every installed pair.

Where they differ on purpose, the test says so and checks Glossa's answer instead (each is in
the README): several q (APy keeps the last), /pipedebug (APy 500s),
a request without a file (APy 500s), a /translateRaw stream that no deformatter writes (APy
drops tags or times out)."""
import http.server
import pathlib
import re
import socketserver
import subprocess
import threading
import urllib.parse

import pytest

import apy_peer
import documents_support
from apy_peer import request
from glossa_server import Server, glossa_binary, require_serve

FLORES = pathlib.Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "flores200-dev"
FALLBACK = "The house is red. Good morning, my friend."

pytestmark = pytest.mark.skipif(apy_peer.APY is None, reason="Debian's apertium-apy is not installed (make deps-test installs it)")


@pytest.fixture(scope="module")
def peers(tmp_path_factory):
    binary = glossa_binary()
    require_serve(binary)
    export = tmp_path_factory.mktemp("apy-modes")
    # Each exported mode is checked with a cold start of its command: minutes on a loaded machine.
    subprocess.run([binary, "modes", "--export", str(export)], check=True, timeout=900)
    apy = apy_peer.Peer(str(export))
    glossa = Server(binary, "--allow-fetch", "127.0.0.1")
    yield apy, glossa
    apy.stop()
    assert glossa.stop() == 0


# Once APy stops answering, every later comparison would wait out its timeout (CI's whole time
# budget, once): the first test that finds it silent fails with its log, the rest fail at once.
_apy_silent: list[str] = []


@pytest.fixture(autouse=True)
def apy_still_answers(peers):
    if _apy_silent:
        pytest.fail(f"apertium-apy stopped answering earlier in this module: {_apy_silent[0]}")
    if not peers[0].answers():
        _apy_silent.append(f"no answer to /listPairs within 15 s; its log ends: {peers[0].log_tail()}")
        pytest.fail(_apy_silent[0])


def both(peers, path, **kwargs):
    apy, glossa = peers
    try:
        theirs = request(apy.url, path, timeout=90, **kwargs)
    except (TimeoutError, OSError) as error:
        if not apy.answers():
            _apy_silent.append(f"{path}: {error!r}; its log ends: {apy.log_tail()}")
            pytest.fail(_apy_silent[0])
        raise
    return theirs, request(glossa.url, path, **kwargs)


def same(peers, path, **kwargs):
    """Asserts equal statuses and equal JSON; returns Glossa's answer."""
    (s1, b1, _), (s2, b2, _) = both(peers, path, **kwargs)
    assert (s2, b2) == (s1, b1), f"{path}: APy {s1} {b1!r:.600} / Glossa {s2} {b2!r:.600}"
    return b2


def installed_pairs(peers):
    _, body, _ = request(peers[0].url, "/listPairs")
    return sorted({(p["sourceLanguage"], p["targetLanguage"]) for p in body["responseData"]})


def withheld_pairs(peers) -> set[tuple[str, str]]:
    """The installed pairs Glossa's probe found broken and so does not serve (its /glossa/v1/health names
    each with the reason), in APy's codes. APy lists them and hangs or fails on them; Glossa
    leaves them out of its lists and answers at once (through a pivot, or with APy's refusal)."""
    _, health, _ = request(peers[1].url, "/glossa/v1/health")
    # Pairs only (`ca-eo`): unavailable analysis modes (`cat-epo-morph`) are listed there too.
    modes = [key for engine in health["engines"] if engine["engine"] == "apertium" for key in engine["unavailable"]
             if key.count("-") == 1]
    if not modes:
        return set()
    # APy's own code conversion (Debian's apertium_apy), so the names are APy's.
    # Both spellings, as `include_deprecated_codes` lists both.
    script = ("import sys\nfrom apertium_apy.utils import to_alpha2_code as a2, to_alpha3_code as a3\n"
              "for m in sys.argv[1:]:\n print(*map(a3, m.split('-')))\n print(*map(a2, map(a3, m.split('-'))))")
    out = subprocess.run(["/usr/bin/python3", "-c", script, *modes], capture_output=True, text=True, check=True).stdout
    return {tuple(line.split()) for line in out.splitlines()}


def sentence(code: str) -> str:
    base = code.split("_")[0]
    aliases = {"hbs": "hrv", "zlm": "zsm", "nor": "nob"}
    for name in (base, aliases.get(base, "")):
        found = sorted(FLORES.glob(f"{name}_*.dev")) if name else []
        if found:
            return found[0].read_text(encoding="utf-8").splitlines()[0]
    return FALLBACK


# APy's mode_search.py finds a mode only when each code is `[a-z]{2,3}(_[A-Za-z0-9]+)?`, so it never
# sees modes such as eng-cat_valencia_uni_iec2017 (two suffixes). Glossa lists and serves every
# installed mode; the comparison leaves out the ones APy cannot name.
APY_CODE = re.compile(r"[a-z]{2,3}(_[A-Za-z0-9]+)?")


def apy_can_name(key: str) -> bool:
    return all(APY_CODE.fullmatch(code) for code in key.split("-"))


def test_pair_and_mode_lists_are_apys(peers):
    (s1, apy, _), (s2, ours, _) = both(peers, "/listPairs")
    assert s1 == s2 == 200
    withheld = withheld_pairs(peers)
    as_set = lambda body: sorted({(p["sourceLanguage"], p["targetLanguage"]) for p in body["responseData"]
                                  if apy_can_name(p["sourceLanguage"] + "-" + p["targetLanguage"])
                                  and (p["sourceLanguage"], p["targetLanguage"]) not in withheld})
    assert as_set(ours) == as_set(apy)
    assert {k: v for k, v in ours.items() if k != "responseData"} == {k: v for k, v in apy.items() if k != "responseData"}
    (_, apy, _), (_, ours, _) = both(peers, "/list?q=pairs&include_deprecated_codes=1")
    assert as_set(ours) == as_set(apy)
    for q in ["analyzers", "analysers", "generators", "taggers", "disambiguators", "spellers"]:
        (s1, apy, _), (s2, ours, _) = both(peers, f"/list?q={q}")
        assert s1 == s2 == 200
        assert {k: v for k, v in ours.items() if apy_can_name(k)} == apy, q
    same(peers, "/list?q=nonsense")


@pytest.mark.parametrize("options", ["", "&markUnknown=no&format=txt"])
def test_every_installed_pair_translates_as_apy_does(peers, options):
    differing = []
    withheld = withheld_pairs(peers)
    for source, target in installed_pairs(peers):
        path = f"/translate?langpair={source}|{target}&q=" + urllib.parse.quote(sentence(source)) + options
        if (source, target) in withheld:
            # Glossa answers at once: through a pivot over working pairs where there is one, or with
            # APy's own refusal.
            status, body, _ = request(peers[1].url, path, timeout=30)
            assert status == 200 or (status, body["explanation"]) == (400, "That pair is not installed"), (source, target, body)
            continue
        (s1, b1, _), (s2, b2, _) = both(peers, path)
        if (s1, b1) != (s2, b2):
            differing.append(f"{source}-{target}: APy {s1} {b1!r:.300} / Glossa {s2} {b2!r:.300}")
    assert not differing, f"{len(differing)} pairs differ:\n" + "\n".join(differing)


TRANSLATE_ERRORS = [
    "/translate?q=a", "/translate?langpair=eng|spa", "/translate?langpair=engspa&q=a", "/translate?langpair=eng-spa&q=a",
    "/translate?langpair=eng|spa|cat&q=a", "/translate?langpair=eng|xxx&q=a", "/translate?langpair=xx|yy&q=a",
    "/translate?langpair=eng|spa&q=", "/translateChain?q=a", "/translateChain?langpairs=eng&q=a",
    "/translateChain?langpairs=eng|eng&q=a", "/translateChain?langpairs=eng|spa|xxx&q=a", "/translateChain?langpairs=eng|xxx&q=a",
    "/translateChain?langpairs=eng|spa|cat&q=The+house", "/translateChain?langpairs=eng|spa|cat",
    "/analyze?lang=eng", "/analyze?q=a", "/analyze?lang=xxx&q=a", "/analyse?lang=en&q=The+houses+are+red",
    "/generate?lang=spa", "/generate?lang=xxx&q=^a<n>$", "/calcCoverage?lang=eng", "/calcCoverage?lang=eng&q=",
    "/calcCoverage?lang=xxx&q=a", "/perWord?lang=eng&q=a", "/perWord?lang=eng&modes=morph+nonsense&q=a",
    "/perWord?lang=xxx&modes=morph&q=a", "/perWord?lang=xxx&modes=tagger&q=a", "/getLocale",
    "/translatePage?url=x", "/translatePage?langpair=eng|xxx&url=x", "/translatePage?langpair=eng|spa",
    "/translateDoc?file=x", "/translateDoc?langpair=eng|xxx",
    # markUnknown as APy compares it on these endpoints: exactly yes, true or 1 (True: no marks).
    # (/translateChain compares it the same way; an unknown word shows no difference there: APy
    # marks it once per hop and strips one mark, Glossa marks only on the last hop.)
    "/translate?langpair=eng|spa&q=Zorblax+house&markUnknown=True", "/translate?langpair=eng|spa&q=Zorblax+house&markUnknown=1",
    "/translateRaw?q=a", "/translateRaw?langpair=eng|spa", "/translateRaw?langpair=engspa&q=a", "/translateRaw?langpair=eng|xxx&q=a",
    "/translateRaw?langpair=|spa&q=a", "/translateRaw?langpair=eng|eng&q=a", "/translateRaw?langpair=eng|spa|cat&q=a",
]


@pytest.mark.parametrize("path", TRANSLATE_ERRORS)
def test_answers_and_errors_are_apys(peers, path):
    same(peers, path)


RAW = [
    "/translateRaw?langpair=eng|spa&q=The+house+is+red.", "/translateRaw?langpair=eng|spa&q=The+%3Cb%3Ehouse%3C/b%3E+is+red",
    "/translateRaw?langpair=eng|spa&q=Zorblax+house", "/translateRaw?langpair=eng|spa&q=Zorblax+house&markUnknown=no",
    "/translateRaw?langpair=eng|spa&q=Zorblax+house&markUnknown=True", "/translateRaw?langpair=en|es&q=Hello&callback=f",
    "/translateRaw?langpair=spa|eng&q=Hola+%5Bmundo%5D+a/b+%5Ec%24+%26amp%3B", "/translateRaw?langpair=eng|spa&q=++two++spaces%0A%0Anext",
    "/translateRaw?langpair=eng|spa&q=%5B%3Cb%3E%5Dhouse%5B%3C%5C/b%3E%5D.%5B%5D&deformat=False",
    "/translateRaw?langpair=eng|spa&q=The+house+is+red&deformat=False", "/translateRaw?langpair=eng|spa&q=Hello&deformat=false",
    "/translateRaw?langpair=eng|spa&q=",
]


@pytest.mark.parametrize("path", RAW)
def test_raw_translation_is_apys(peers, path):
    """The pipeline's stream itself as the body, labelled JSON as APy labels it (no JSONP)."""
    (s1, b1, t1), (s2, b2, t2) = both(peers, path)
    assert (s2, b2, t2) == (s1, b1, t1), f"{path}: APy {s1} {t1} {b1!r:.300} / Glossa {s2} {t2} {b2!r:.300}"


@pytest.mark.parametrize("stream, fault", [("The+%3Cb%3Ehouse", "an unescaped < at character 5"), ("house+%5Bx", "never closed"),
                                           ("house+x%5D", "an unescaped ] at character 8"), ("a/b", "an unescaped / at character 2")])
def test_raw_stream_that_no_deformatter_writes_is_refused_at_once(peers, stream, fault):
    """APy sends such a stream into the pipeline: tags are dropped silently (`El Casa`), or it
    waits out its 10 s timeout and answers 503. Glossa says what is wrong, at once."""
    status, body, _ = request(peers[1].url, f"/translateRaw?langpair=eng|spa&deformat=False&q={stream}", timeout=10)
    assert status == 400 and body["status"] == "error" and fault in body["explanation"], body


def test_raw_stream_without_a_word_is_answered(peers):
    """`\\^` alone: a frame with no word, on which lrx-proc loses the pipeline's framing (APy
    waits out its timeout and answers 503); Glossa closes the frame and answers at once."""
    status, body, _ = request(peers[1].url, "/translateRaw?langpair=eng|spa&deformat=False&q=%5C%5E", timeout=30)
    assert status == 200 and b"^" in body, body


MORPHOLOGY = [
    "/analyze?lang=eng&q=The+houses+are+red.+Zorblax+is+here", "/analyze?lang=spa&q=Las+casas+son+rojas",
    "/analyze?lang=eng-spa&q=I+saw+it", "/analyze?lang=cat&q=Bon+dia", "/analyze?lang=eng&q=a/b+^c$+[d]",
    "/generate?lang=spa&q=^casa<n><f><pl>$^ser<vbser><pri><p3><sg>$", "/generate?lang=spa&q=casa<n><f><pl>",
    "/generate?lang=eng-spa&q=^gato<n><m><pl>$+^zorblax<n><m><sg>$", "/generate?lang=cat&q=^casa<n><f><pl>$",
    "/calcCoverage?lang=eng&q=The+houses+xyzzy", "/calcCoverage?lang=spa&q=La+casa+es+roja.",
    "/perWord?lang=eng&modes=morph+tagger&q=The+houses+are+red.", "/perWord?lang=eng&modes=morph&q=I+saw+it.",
    "/perWord?lang=eng&modes=morph+tagger&q=the+house",
    "/perWord?lang=eng-spa&modes=biltrans+translate&q=The+houses+are+red.", "/perWord?lang=spa&modes=tagger&q=La+casa.",
]


@pytest.mark.parametrize("path", MORPHOLOGY)
def test_morphology_is_apys(peers, path):
    same(peers, path)


def first_readings(units: list[str]) -> str:
    """The generator's input for the units of an /analyze answer (`houses/house<n><pl>/…`): each
    word's first reading as a lexical unit (`^house<n><pl>$`), unknown words (`*word`) left out."""
    out = []
    for unit in units:
        readings = unit.split("/")[1:]
        if readings and not readings[0].startswith("*"):
            out.append("^" + readings[0] + "$")
    return " ".join(out)


def test_every_analyser_tagger_and_generator_is_apys(peers):
    """Every installed analysis mode that APy can name, on a FLORES sentence of its language (the
    morphology above tries a few modes on hand-made inputs): /analyze and /calcCoverage on each
    analyser, /perWord's tagger on each tagger, and each generator on the first readings of its
    language's analysis. Pools of analysis modes are closed when idle (GLOSSA_MAX_WARM), so
    this holds in memory with every Debian pair installed."""
    lists = {q: both(peers, f"/list?q={q}")[0][1] for q in ("analyzers", "taggers", "generators")}
    differing, compared = [], 0

    def compare(path):
        nonlocal compared
        (s1, b1, _), (s2, b2, _) = both(peers, path)
        compared += 1
        if s1 == s2 == 500 and b1 == dict(b2, explanation="Internal Server Error") and "exited" in b2["explanation"]:
            # A mode whose stage crashes on this text (the rus and ukr taggers of Debian's
            # rus-ukr and bel-rus segfault): both answer APy's 500; Glossa's explanation says
            # that a stage died (and it answers at once, not at its deadline).
            return s1, b1
        if (s1, b1) != (s2, b2):
            differing.append(f"{urllib.parse.unquote(path)[:80]}: APy {s1} {b1!r:.400} / Glossa {s2} {b2!r:.400}")
        return s1, b1

    analyses = {}
    for key in sorted(k for k in lists["analyzers"] if apy_can_name(k)):
        q = urllib.parse.quote(sentence(key.split("-")[0]))
        status, body = compare(f"/analyze?lang={key}&q={q}")
        if status == 200:
            analyses[key] = [pair[0] for pair in body]
        compare(f"/calcCoverage?lang={key}&q={q}")
    for key in sorted(k for k in lists["taggers"] if apy_can_name(k)):
        compare(f"/perWord?lang={key}&modes=tagger&q=" + urllib.parse.quote(sentence(key.split("-")[0])))
    for key in sorted(k for k in lists["generators"] if apy_can_name(k)):
        source = analyses.get(key) or analyses.get(key.split("-")[-1]) or []
        if first_readings(source):
            compare(f"/generate?lang={key}&q=" + urllib.parse.quote(first_readings(source)))
    assert compared >= len(lists["analyzers"]) > 0
    assert not differing, f"{len(differing)} of {compared} answers differ:\n" + "\n".join(differing)


def test_analysis_modes_that_cannot_start_are_not_offered(peers):
    """An analysis mode whose command names a program or file that is missing (here: the stages
    of Debian's ca-eo and es-eo, whose packages lack their dictionaries) is named in /glossa/v1/health,
    left out of /list (and so of the export APy serves), and answered at once as APy answers a
    mode it does not have. Where every mode can start (CI's default pairs), there is none."""
    _, health, _ = request(peers[1].url, "/glossa/v1/health")
    broken = {key: why for engine in health["engines"] if engine["engine"] == "apertium"
              for key, why in engine["unavailable"].items() if why.startswith("analysis mode: ")}
    listed = {}
    for q in ["analyzers", "generators", "taggers"]:
        listed.update({name: key for key, name in request(peers[1].url, f"/list?q={q}")[1].items()})
    for name in broken:
        assert name not in listed, name
        key, kind = name.rsplit("-", 1)
        path = {"morph": f"/analyze?lang={key}&q=Bon+dia", "gener": f"/generate?lang={key}&q=%5Ecasa%3Cn%3E%24",
                "tagger": f"/perWord?lang={key}&modes=tagger&q=Bon+dia", "autobil": f"/perWord?lang={key}&modes=biltrans&q=Bon+dia"}[kind]
        if kind == "morph":
            assert same(peers, f"/calcCoverage?lang={key}&q=Bon+dia")["explanation"] == "That mode is not installed"
        # Glossa's answer is checked with a short timeout: at once, not after a pipeline start.
        status, body, _ = request(peers[1].url, path, timeout=10)
        assert status == 400 and body["explanation"] in ("That mode is not installed", "No output"), (name, body)
        assert same(peers, path) == body


@pytest.mark.parametrize("header", ["nb-NO,en;q=0.8", "es", "en-US, en;q=0.9, *;q=0.5", ""])
def test_get_locale_is_apys(peers, header):
    same(peers, "/getLocale", headers={"Accept-Language": header})


@pytest.mark.parametrize("path", ["/listLanguageNames?locale=en&languages=eng+spa+cat+por+glg",
                                  "/listLanguageNames?locale=es&languages=en+es+ca", "/listLanguageNames?locale=xx&languages=en",
                                  "/listLanguageNames?locale=en&languages=zzz"])
def test_language_names_are_apys(peers, path):
    same(peers, path)


def test_documents_as_apy_answers_them(peers, tmp_path):
    form = {"langpair": "eng|spa"}
    same(peers, "/translateDoc", data={"langpair": "eng|xxx"}, files={"file": ("a.txt", b"Hello")})
    same(peers, "/translateDoc", data={"langpair": "engspa"}, files={"file": ("a.txt", b"Hello")})
    same(peers, "/translateDoc", data=form, files={"file": ("a.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")})
    same(peers, "/translateDoc", data=form, files={"file": ("a.png", documents_support.tiny_png())})
    text = b"The house is red.\n\nGood morning, my friend.\n"
    (s1, b1, _), (s2, b2, t2) = both(peers, "/translateDoc", data=form, files={"file": ("a.txt", text)})
    assert s1 == s2 == 200 and b2 == b1, (b1, b2)
    assert t2.startswith("text/plain")
    # APy answers a request without a file with a 500; Glossa names the missing argument.
    s, body, _ = request(peers[1].url, "/translateDoc", data=form, files={})
    assert s == 400 and body["explanation"] == "Missing argument file"


class _Page(http.server.BaseHTTPRequestHandler):
    body = ('<html><head><title>The house</title></head><body><p>The red house is <b>very</b> old.</p>'
            '<a href="/next.html">Next page</a> <img src="img/a.png"> &amp; caf&eacute; &#150; x\u00ady</body></html>').encode()

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


def test_translate_page_fetches_only_allowed_hosts(peers):
    with socketserver.TCPServer(("127.0.0.1", 0), _Page) as httpd:
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        try:
            port = httpd.server_address[1]
            same(peers, f"/translatePage?langpair=eng|spa&url=http://127.0.0.1:{port}/page.html")
            same(peers, f"/translatePage?langpair=eng|spa&url=127.0.0.1:{port}/page.html")
            # localhost is not an allowed host (only 127.0.0.1 is): APy fetches whatever it is
            # given; Glossa refuses at once, in APy's envelope.
            (s1, _, _), (s, body, _) = both(peers, f"/translatePage?langpair=eng|spa&url=http://localhost:{port}/")
            assert s1 == 200
            assert s == 403 and body["status"] == "error" and "localhost" in body["explanation"] and "--allow-fetch" in body["explanation"]
        finally:
            httpd.shutdown()


def test_several_q_keep_every_text(peers):
    (s1, b1, _), (s2, b2, _) = both(peers, "/translate?langpair=eng|spa&q=dog&q=cat")
    assert s1 == 200 and b1["responseData"]["translatedText"] == "Gato"   # APy drops the first q
    assert s2 == 400 and "q" in b2["explanation"]                          # Glossa refuses to drop any


def test_stats_count_what_both_served(peers):
    def snapshot():
        (s1, apy, _), (s2, ours, _) = both(peers, "/stats")
        assert s1 == s2 == 200
        a, g = apy["responseData"], ours["responseData"]
        assert set(g) == set(a) and set(g["periodStats"]) == set(a["periodStats"])
        return a, g
    before = snapshot()
    for path in ["/translate?langpair=eng|spa&q=The+red+house", "/translate?langpair=spa|cat&q=La+casa", "/translate?langpair=eng|xxx&q=a",
                 "/translateChain?langpairs=eng|spa|cat&q=The+house", "/translate?langpair=eng|spa&q="]:
        same(peers, path)
    after = snapshot()
    def delta(i):
        (a0, g0), (a1, g1) = before, after
        pick = (a0, a1) if i == 0 else (g0, g1)
        uses = {k: v - pick[0]["useCount"].get(k, 0) for k, v in pick[1]["useCount"].items() if v != pick[0]["useCount"].get(k, 0)}
        return uses, {k: pick[1]["periodStats"][k] - pick[0]["periodStats"][k] for k in ("requests", "totChars")}
    assert delta(1) == delta(0) == ({"eng-spa": 3, "spa-cat": 2}, {"requests": 4, "totChars": 13 + 7 + 9})
    assert after[1]["runningPipes"].get("eng-spa", 0) >= 1 and after[1]["holdingPipes"] == 0
