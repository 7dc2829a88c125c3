"""DeepL API v2 as the official `deepl` Python client speaks it (`deepl.Translator(key,
server_url=...)`), against a live `glossa serve` with the real Apertium pairs: one and many
texts, auto-detection, tag_handling="html", usage, source and target languages, and DeepL's own
exceptions for what the server refuses."""
import http.client
import json

import deepl
import pytest

from glossa_server import server  # noqa: F401  (the fixture)


@pytest.fixture(scope="module")
def translator(server):
    return deepl.Translator("glossa-test-key:fx", server_url=server.url)


def test_translates_one_text_and_detects_its_language(translator):
    result = translator.translate_text("The cat is black.", target_lang="ES")
    assert result.text == "El gato es negro."
    assert result.detected_source_lang == "EN"
    assert result.billed_characters == len("The cat is black.")


def test_translates_many_texts_in_order(translator):
    results = translator.translate_text(["Good morning", "The cat is black.", "I would like to buy a ticket to Madrid."],
                                        source_lang="EN", target_lang="ES")
    assert [r.text for r in results] == ["Buenos días", "El gato es negro.", "Me gustaría comprar una entrada a Madrid."]
    assert all(r.detected_source_lang == "EN" for r in results)


def test_english_variants_as_targets(translator):
    result = translator.translate_text("El gato es negro.", target_lang="EN-US")
    assert result.text == "The cat is black."
    assert result.detected_source_lang == "ES"


def test_html_tag_handling_keeps_markup(translator):
    result = translator.translate_text("<p>The cat is <b>black</b>.</p>", source_lang="EN", target_lang="ES", tag_handling="html")
    assert result.text.startswith("<p>") and result.text.endswith("</p>")
    assert "<b>" in result.text and "gato" in result.text


def test_usage_counts_the_characters_of_this_key(server):
    client = deepl.Translator("usage-counter-key", server_url=server.url)
    before = client.get_usage().character.count
    client.translate_text("Good morning", target_lang="ES")
    usage = client.get_usage()
    assert usage.character.count == before + len("Good morning")
    assert usage.character.limit == 10**12 and not usage.any_limit_reached


def test_source_and_target_languages(translator):
    sources = {language.code: language.name for language in translator.get_source_languages()}
    assert sources["EN"] == "English" and sources["ES"] == "Spanish"
    targets = {language.code: language for language in translator.get_target_languages()}
    assert {"EN-GB", "EN-US", "ES", "CA"} <= set(targets)
    assert targets["EN-US"].supports_formality is False


def test_an_unknown_target_raises_deepls_exception(translator):
    with pytest.raises(deepl.DeepLException, match="Value for 'target_lang' not supported."):
        translator.translate_text("Hello", target_lang="JA")
    with pytest.raises(deepl.DeepLException, match="'formality' is not supported for given 'target_lang'."):
        translator.translate_text("Hello", target_lang="ES", formality="more")


def test_made_up_codes_are_named_in_deepls_order_before_what_is_not_installed(server):
    """DeepL checks target_lang, then source_lang, against the languages it knows; a code that
    names no language is refused as DeepL refuses it even when the other language (Japanese here)
    has no installed pair: deepl-python's own test_invalid_language and test_skip_language_check."""
    for translator in (deepl.Translator("k:fx", server_url=server.url),
                       deepl.Translator("k:fx", server_url=server.url, skip_language_check=True)):
        with pytest.raises(deepl.DeepLException, match="Value for 'source_lang' not supported."):
            translator.translate_text("Hello", source_lang="XX", target_lang="JA")
        with pytest.raises(deepl.DeepLException, match="Value for 'target_lang' not supported."):
            translator.translate_text("Hello", source_lang="XX", target_lang="XX")


def test_bad_input_gets_deepls_envelope(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("POST", "/v2/translate", body=b'{"text": ["a"', headers={"Content-Type": "application/json",
                                                                          "Authorization": "DeepL-Auth-Key k"})
    response = conn.getresponse()
    assert response.status == 400 and "message" in json.loads(response.read())
    conn.request("POST", "/v2/translate", body="text=Hello&target_lang=ES&split_sentences=7",
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    assert response.status == 400 and json.loads(response.read()) == {"message": "Parameter 'split_sentences' is invalid."}
    conn.close()
