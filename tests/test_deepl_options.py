"""DeepL's tag and sentence options and its document checks, against a live `glossa serve` with
the real Apertium pairs, through the official deepl client where it has the option: content of
`ignore_tags` elements comes back untranslated (Weblate sends `ignore_tags=x`), the other tag
options are taken, `context` is neither translated nor billed, and a document asks for a
formality DeepL would take and in another language than the target."""
import io
import json

import deepl
import pytest

from glossa_server import call, server  # noqa: F401  (the fixture)

AUTH = {"Authorization": "DeepL-Auth-Key k", "Content-Type": "application/json"}


@pytest.fixture(scope="module")
def translator(server):
    return deepl.Translator("glossa-test-key:fx", server_url=server.url)


def test_ignored_elements_come_back_as_they_were(translator):
    text = "<p>The <keep>red house</keep> is big.</p>"
    kept = translator.translate_text(text, source_lang="EN", target_lang="ES", tag_handling="xml", ignore_tags=["keep"]).text
    assert "<keep>red house</keep>" in kept and "grande" in kept, kept
    translated = translator.translate_text(text, source_lang="EN", target_lang="ES", tag_handling="xml").text
    assert "red house" not in translated, translated


def test_weblates_request_keeps_its_placeholders(server):
    body = {"text": ['Delete <x id="7"></x> files?'], "source_lang": "EN", "target_lang": "ES",
            "tag_handling": "xml", "ignore_tags": ["x"], "formality": "default"}
    status, _, answer = call(server, "POST", "/v2/translate", json.dumps(body).encode(), AUTH)
    assert status == 200, answer
    assert '<x id="7"></x>' in json.loads(answer)["translations"][0]["text"]


def test_the_other_tag_options_are_taken(translator):
    out = translator.translate_text("<doc><s>The house.</s><s>The cat.</s></doc>", source_lang="EN", target_lang="ES",
                                    tag_handling="xml", outline_detection=False, splitting_tags=["s"],
                                    non_splitting_tags=["doc"])
    assert out.text.startswith("<doc><s>") and "casa" in out.text and "gato" in out.text, out.text
    for split in ("0", "1", "nonewlines"):
        assert "casa" in translator.translate_text("The house.\n\nThe cat.", source_lang="EN", target_lang="ES",
                                                   split_sentences=split, preserve_formatting=True).text


def test_context_is_neither_translated_nor_billed(server):
    body = {"text": ["The house."], "source_lang": "EN", "target_lang": "ES", "context": "A long context about houses.",
            "show_billed_characters": True}
    status, _, answer = call(server, "POST", "/v2/translate", json.dumps(body).encode(), AUTH)
    item = json.loads(answer)["translations"][0]
    assert status == 200 and item["billed_characters"] == len("The house.") and "contexto" not in item["text"]


def test_a_document_checks_formality_and_refuses_its_own_language(translator, server):
    with pytest.raises(deepl.DeepLException, match="formality"):
        translator.translate_document(io.BytesIO(b"The house."), io.BytesIO(), target_lang="ES", filename="a.txt", formality="invalid")
    # Spanish text to Spanish: DeepL's job ends in error, not "done" with the file unchanged.
    with pytest.raises(deepl.DocumentTranslationException, match="Source and target language are equal"):
        translator.translate_document(io.BytesIO("La casa es grande y la ciudad también es muy bonita.".encode()), io.BytesIO(),
                                      target_lang="ES", filename="a.txt")
