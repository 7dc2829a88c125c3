"""Glossaries as DeepL's clients use them, against a live `glossa serve` with the real Apertium
pairs and a real SQLite store: the official deepl client, unchanged, makes, lists, reads and
deletes v2 and v3 glossaries and translates text and a document with one; terms from a table
come out in every FLORES-200 dev sentence that has them, the rest of the sentence as without the
glossary except around the term; entries are checked as DeepL checks them; each key sees only
its own glossaries; `/v3/languages` answers Weblate's question honestly."""
import collections
import io
import json
import pathlib
import re
import subprocess

import deepl
import pytest
import requests
from deepl.api_data import MultilingualGlossaryDictionaryEntries

from glossa_server import Server, glossa_binary, server  # noqa: F401  (the fixture: a server with a data folder of its own)

REPO = pathlib.Path(__file__).resolve().parent.parent
FLORES = REPO.parent / "shared" / "data" / "flores200-dev"
TERMS = REPO / "tests" / "data" / "glossary-flores-terms.tsv"
FLORES_FILES = {"en": "eng_Latn", "es": "spa_Latn"}


@pytest.fixture(scope="module")
def client(server):
    return deepl.DeepLClient("glossary-test:fx", server_url=server.url)


def test_a_v2_glossary_is_made_listed_read_used_and_deleted(client):
    assert ("EN", "ES") in {(p.source_lang.upper(), p.target_lang.upper()) for p in client.get_glossary_languages()}
    glossary = client.create_glossary("house words", "EN", "ES", {"house": "hogar", "red": "colorado"})
    assert glossary.ready and glossary.entry_count == 2 and glossary.source_lang == "EN" and glossary.target_lang == "ES"
    assert glossary.glossary_id in [g.glossary_id for g in client.list_glossaries()]
    assert client.get_glossary(glossary.glossary_id).name == "house words"
    assert client.get_glossary_entries(glossary) == {"house": "hogar", "red": "colorado"}

    plain = client.translate_text("My house is your house.", source_lang="EN", target_lang="ES").text
    used = client.translate_text("My house is your house.", source_lang="EN", target_lang="ES", glossary=glossary).text
    assert "casa" in plain and used.count("hogar") == 2 and "casa" not in used, (plain, used)
    # A term capitalised at a sentence start is found, and its target capitalised; in HTML the
    # term is found in the text, never in an attribute.
    assert client.translate_text("House.", source_lang="EN", target_lang="ES", glossary=glossary).text.startswith("Hogar")
    html = client.translate_text('<p title="house">My <b>house</b></p>', source_lang="EN", target_lang="ES",
                                 glossary=glossary, tag_handling="html").text
    assert html == '<p title="house">Mi <b>hogar</b></p>', html

    out = io.BytesIO()
    client.translate_document(io.BytesIO(b"My house is red.\n"), out, source_lang="EN", target_lang="ES",
                              filename="note.txt", glossary=glossary)
    assert "hogar" in out.getvalue().decode() and "colorado" in out.getvalue().decode(), out.getvalue()

    client.delete_glossary(glossary)
    with pytest.raises(deepl.GlossaryNotFoundException):
        client.get_glossary(glossary.glossary_id)
    with pytest.raises(deepl.DeepLException, match="Glossary not found"):
        client.translate_text("My house.", source_lang="EN", target_lang="ES", glossary=glossary.glossary_id)


def test_a_glossary_from_csv_as_deepls_website_exports_it(client):
    glossary = client.create_glossary_from_csv("csv", "EN", "ES", '"red, dark",rojo oscuro,en,es\nsea,océano,en,es\n')
    assert client.get_glossary_entries(glossary) == {"red, dark": "rojo oscuro", "sea": "océano"}
    assert "océano" in client.translate_text("The sea.", source_lang="EN", target_lang="ES", glossary=glossary).text
    client.delete_glossary(glossary)


def test_a_v3_glossary_with_several_dictionaries(client):
    glossary = client.create_multilingual_glossary("multi", [
        MultilingualGlossaryDictionaryEntries("EN", "ES", {"house": "hogar"}),
        MultilingualGlossaryDictionaryEntries("ES", "CA", {"casa": "llar"}),
    ])
    assert sorted((d.source_lang, d.target_lang, d.entry_count) for d in glossary.dictionaries) == [("EN", "ES", 1), ("ES", "CA", 1)]
    assert "llar" in client.translate_text("La casa es grande.", source_lang="ES", target_lang="CA", glossary=glossary).text
    assert "hogar" in client.translate_text("My house.", source_lang="EN", target_lang="ES", glossary=glossary).text
    # (the client checks the pair itself when given the glossary; the server when given its id)
    with pytest.raises(deepl.DeepLException, match="no dictionary for EN to CA"):
        client.translate_text("My house.", source_lang="EN", target_lang="CA", glossary=glossary.glossary_id)

    updated = client.update_multilingual_glossary_dictionary(glossary, MultilingualGlossaryDictionaryEntries("EN", "ES", {"sea": "océano"}))
    assert {(d.source_lang, d.entry_count) for d in updated.dictionaries} == {("EN", 2), ("ES", 1)}
    # DeepL gives the entries as TSV text, which the client hands on as it came.
    entries = client.get_multilingual_glossary_entries(glossary, "EN", "ES").dictionaries[0].entries
    assert deepl.util.convert_tsv_to_dict(entries) == {"house": "hogar", "sea": "océano"}
    replaced = client.replace_multilingual_glossary_dictionary(glossary, MultilingualGlossaryDictionaryEntries("EN", "ES", {"sky": "cielo"}))
    assert replaced.entry_count == 1
    assert client.update_multilingual_glossary_name(glossary, "renamed").name == "renamed"
    client.delete_multilingual_glossary_dictionary(glossary, source_lang="ES", target_lang="CA")
    assert [(d.source_lang, d.target_lang) for d in client.get_multilingual_glossary(glossary.glossary_id).dictionaries] == [("EN", "ES")]
    assert glossary.glossary_id in [g.glossary_id for g in client.list_multilingual_glossaries()]
    client.delete_multilingual_glossary(glossary)
    with pytest.raises(deepl.GlossaryNotFoundException):
        client.get_multilingual_glossary(glossary.glossary_id)


@pytest.mark.parametrize("entries, problem", [
    ("house\thogar\nsea", "line 2: no tab"),
    ("house\thogar\nhouse\tcasa", 'line 2: the source term \\"house\\" is already on line 1'),
    ("house\tho\tgar", "line 1: more than one tab"),
    ("\thogar", "line 1: the source term is empty"),
    ("", "there are no entries"),
])
def test_bad_entries_are_refused_with_their_line(server, entries, problem):
    r = requests.post(server.url + "/v2/glossaries", json={"name": "bad", "source_lang": "en", "target_lang": "es",
                                                          "entries": entries, "entries_format": "tsv"},
                      headers={"Authorization": "DeepL-Auth-Key k"}, timeout=60)
    assert r.status_code == 400 and problem in r.text, r.text


def test_what_deepl_refuses_is_refused_in_its_envelope(server, client):
    auth = {"Authorization": "DeepL-Auth-Key k"}
    r = requests.post(server.url + "/v2/glossaries", json={"name": "x", "source_lang": "en", "target_lang": "xx",
                                                          "entries": "a\tb", "entries_format": "tsv"}, headers=auth, timeout=60)
    assert r.status_code == 400 and r.json() == {"message": "Value for 'target_lang' not supported."}
    r = requests.post(server.url + "/v2/glossaries", json={"name": "x", "source_lang": "en", "target_lang": "en",
                                                          "entries": "a\tb", "entries_format": "tsv"}, headers=auth, timeout=60)
    assert r.status_code == 400 and r.json() == {"message": "Unsupported glossary source and target language pair."}
    r = requests.post(server.url + "/v2/glossaries", json={"name": "x", "source_lang": "en", "target_lang": "es",
                                                          "entries": "a,b", "entries_format": "xml"}, headers=auth, timeout=60)
    assert r.status_code == 400 and "entries_format" in r.json()["message"]
    glossary = client.create_glossary("g", "EN", "ES", {"house": "hogar"})
    r = requests.post(server.url + "/v2/translate", json={"text": ["house"], "target_lang": "ES", "glossary_id": glossary.glossary_id},
                      headers=auth, timeout=60)
    assert r.status_code == 400 and r.json() == {"message": "Use of a glossary requires the source_lang parameter to be specified"}
    r = requests.get(server.url + "/v2/glossaries/no-such-id", headers=auth, timeout=60)
    assert r.status_code == 404 and r.json() == {"message": "Glossary not found"}
    r = requests.post(server.url + "/v3/glossaries", data="not json", headers=auth, timeout=60)
    assert r.status_code == 400 and "message" in r.json()
    client.delete_glossary(glossary)


def test_v3_languages_as_weblate_reads_them(server):
    langs = requests.get(server.url + "/v3/languages", params={"resource": "translate_text"}, timeout=60).json()
    by = {entry["lang"]: entry for entry in langs}
    assert set(by["en"]) == {"lang", "name", "usable_as_source", "usable_as_target", "status", "features"}
    assert by["en"]["usable_as_source"] and by["es"]["usable_as_target"] and by["en-US"]["usable_as_target"]
    assert "glossary" in by["es"]["features"] and "tag_handling" in by["es"]["features"]
    assert "auto_detection" in by["en"]["features"] and "formality" not in by["es"]["features"]
    glossary = {entry["lang"] for entry in requests.get(server.url + "/v3/languages?resource=glossary", timeout=60).json()}
    assert {"en", "es", "ca"} <= glossary
    assert requests.get(server.url + "/v3/languages?resource=write", timeout=60).json() == []
    r = requests.get(server.url + "/v3/languages?resource=nonsense", timeout=60)
    assert r.status_code == 400 and r.json() == {"message": "Value for 'resource' not supported."}
    names = [r["name"] for r in requests.get(server.url + "/v3/languages/resources", timeout=60).json()]
    assert "translate_text" in names and "glossary" in names


def flores_terms() -> dict[tuple[str, str], dict[str, str]]:
    out: dict[tuple[str, str], dict[str, str]] = collections.defaultdict(dict)
    for line in TERMS.read_text().splitlines()[1:]:
        source_lang, target_lang, source, target = line.split("\t")
        out[(source_lang, target_lang)][source] = target
    return out


def words(text: str) -> collections.Counter:
    return collections.Counter(re.findall(r"\w+", text.lower()))


@pytest.mark.skipif(not FLORES.exists(), reason="needs ../shared/data/flores200-dev (FLORES-200 dev) beside the repository")
@pytest.mark.parametrize("pair", [("en", "es"), ("es", "ca")])
def test_terms_in_200_flores_sentences(client, pair):
    """Every FLORES dev sentence (of the first 200) with a source term has its target term; the
    rest of the sentence is the translation without the glossary but for the words around the
    term: at most 3 words of the plain translation are missing (the term's own translation and
    its neighbours) in at least 80 % of them."""
    terms = flores_terms()[pair]
    lines = (FLORES / f"{FLORES_FILES[pair[0]]}.dev").read_text().splitlines()[:200]
    glossary = client.create_glossary("flores", pair[0].upper(), pair[1].upper(), terms)

    def translate(**options):
        return [r.text for i in range(0, len(lines), 50)
                for r in client.translate_text(lines[i:i + 50], source_lang=pair[0].upper(), target_lang=pair[1].upper(), **options)]

    plain, used = translate(), translate(glossary=glossary)
    with_terms = close = 0
    for line, p, u in zip(lines, plain, used):
        found = [s for s in terms if re.search(rf"(?<!\w)({re.escape(s)}|{re.escape(s[0].upper() + s[1:])})(?!\w)", line)]
        if not found:
            continue
        with_terms += 1
        for s in found:
            assert terms[s].lower() in u.lower(), (line, u)
        rest = words(u)
        for s in found:
            rest.subtract(words(terms[s]))
        close += sum((words(p) - rest).values()) <= 3
    client.delete_glossary(glossary)
    assert with_terms >= 40
    assert close >= 0.8 * with_terms, (close, with_terms)


def test_each_key_sees_only_its_own_glossaries(tmp_path):
    binary = glossa_binary()
    database = str(tmp_path / "keys.db")

    def key(name):
        made = subprocess.run([binary, "keys", "create", "--name", name, "--json", "--database", database],
                              capture_output=True, text=True, timeout=120)
        assert made.returncode == 0, made.stderr
        return json.loads(made.stdout)["key"]

    alice, bob = key("alice"), key("bob")
    s = Server(binary, "--require-keys", "--database", database)
    try:
        a = deepl.Translator(alice, server_url=s.url)
        b = deepl.Translator(bob, server_url=s.url)
        glossary = a.create_glossary("alice's", "EN", "ES", {"house": "hogar"})
        assert [g.glossary_id for g in a.list_glossaries()] == [glossary.glossary_id]
        assert b.list_glossaries() == []
        with pytest.raises(deepl.GlossaryNotFoundException):
            b.get_glossary(glossary.glossary_id)
        with pytest.raises(deepl.GlossaryNotFoundException):
            b.delete_glossary(glossary.glossary_id)
        with pytest.raises(deepl.DeepLException, match="Glossary not found"):
            b.translate_text("My house.", source_lang="EN", target_lang="ES", glossary=glossary.glossary_id)
        assert "hogar" in a.translate_text("My house.", source_lang="EN", target_lang="ES", glossary=glossary).text
    finally:
        assert s.stop() == 0


def test_the_cli_makes_lists_shows_uses_and_deletes_glossaries(tmp_path):
    binary = glossa_binary()
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}

    def glossa(*args, stdin=None):
        return subprocess.run([binary, *args], input=stdin, capture_output=True, text=True, timeout=300, env=env)

    terms = tmp_path / "terms.tsv"
    terms.write_text("house\thogar\nred\tcolorado\n")
    made = glossa("glossary", "create", "--from", "en", "--to", "es", "--name", "house words", str(terms))
    assert made.returncode == 0, made.stderr
    glossary_id = made.stdout.strip()
    listed = glossa("glossary", "list")
    assert listed.returncode == 0 and glossary_id in listed.stdout and "en-es (2)" in listed.stdout, listed
    shown = glossa("glossary", "show", glossary_id, "--json")
    assert json.loads(shown.stdout)["entries"] == [["house", "hogar"], ["red", "colorado"]]

    by_id = glossa("translate", "--from", "en", "--to", "es", "--glossary", glossary_id, "My house is red.")
    assert by_id.returncode == 0 and "hogar" in by_id.stdout and "colorado" in by_id.stdout, by_id
    by_file = glossa("translate", "--from", "en", "--to", "es", "--glossary", str(terms), stdin="My house.\n")
    assert by_file.returncode == 0 and "hogar" in by_file.stdout, by_file
    assert glossa("translate", "--to", "es", "--glossary", str(terms), "house").returncode == 2

    bad = tmp_path / "bad.tsv"
    bad.write_text("house\thogar\nsea\n")
    refused = glossa("glossary", "create", "--from", "en", "--to", "es", str(bad))
    assert refused.returncode == 2 and "line 2" in refused.stderr, refused
    assert glossa("glossary", "delete", glossary_id).returncode == 0
    assert glossa("glossary", "show", glossary_id).returncode == 1


def test_a_changed_glossary_is_used_at_once_and_the_cache_never_serves_the_old_terms(client):
    """The translation cache keys on the glossary's entries: a changed glossary gives the new
    terms on the next request, and the same request without a glossary still gets its own answer."""
    glossary = client.create_multilingual_glossary("cache", [MultilingualGlossaryDictionaryEntries("EN", "ES", {"house": "hogar"})])
    ask = dict(source_lang="EN", target_lang="ES", glossary=glossary.glossary_id)
    assert "hogar" in client.translate_text("My house.", **ask).text
    client.replace_multilingual_glossary_dictionary(glossary, MultilingualGlossaryDictionaryEntries("EN", "ES", {"house": "morada"}))
    assert "morada" in client.translate_text("My house.", **ask).text
    assert "casa" in client.translate_text("My house.", source_lang="EN", target_lang="ES").text
    client.delete_multilingual_glossary(glossary)
