"""Google Cloud Translation v3 (Advanced) as Google's own Python client sends it over REST
(google-cloud-translate's TranslationServiceClient, transport="rest", anonymous credentials,
client_options={"api_endpoint": URL}: camelCase JSON, `$alt=json;enum-encoding=int` on every
call), unchanged but for the endpoint and credentials, against a live `glossa serve` with the
real Apertium pairs; and the same answers through plain HTTP, as the README shows them."""
import base64
import json
import subprocess

import google.api_core.exceptions
import pytest
from google.auth import api_key
from google.auth.credentials import AnonymousCredentials
from google.cloud import translate_v3

import documents_support as ds
from glossa_server import Server, call, glossa_binary, server  # noqa: F401  (the fixture)

PARENT = "projects/my-project/locations/global"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture(scope="module")
def client(server):
    return translate_v3.TranslationServiceClient(credentials=AnonymousCredentials(), transport="rest",
                                                 client_options={"api_endpoint": server.url})


def test_translate_a_batch_with_and_without_source(client):
    given = client.translate_text(request={"parent": PARENT, "contents": ["Good morning", "The cat is black."],
                                           "source_language_code": "en", "target_language_code": "es", "mime_type": "text/plain"})
    assert [t.translated_text for t in given.translations] == ["Buenos días", "El gato es negro."]
    assert all(t.detected_language_code == "" for t in given.translations)
    detected = client.translate_text(request={"parent": "projects/my-project", "contents": ["The cat is black.", "12345"],
                                              "target_language_code": "es", "mime_type": "text/plain"})
    assert [t.translated_text for t in detected.translations] == ["El gato es negro.", "12345"]
    assert [t.detected_language_code for t in detected.translations] == ["en", "und"]


def test_html_is_the_default_and_markup_is_kept(client):
    response = client.translate_text(request={"parent": PARENT, "contents": ["<p>The <b>red</b> house</p>"],
                                              "target_language_code": "es"})
    translation = response.translations[0]
    assert translation.detected_language_code == "en"
    assert translation.translated_text.startswith("<p>") and "<b>" in translation.translated_text and "casa" in translation.translated_text


def test_model_is_echoed_by_its_full_name(client):
    response = client.translate_text(request={"parent": PARENT, "contents": ["Good morning"], "source_language_code": "en",
                                              "target_language_code": "es", "model": f"{PARENT}/models/general/nmt"})
    assert response.translations[0].model == f"{PARENT}/models/general/nmt"


def test_detect_language(client):
    response = client.detect_language(request={"parent": PARENT, "content": "¿Dónde está la biblioteca?", "mime_type": "text/plain"})
    assert len(response.languages) == 1
    assert response.languages[0].language_code == "es" and 0 < response.languages[0].confidence <= 1
    html = client.detect_language(request={"parent": PARENT, "content": "<div class='x'><p>Guten Morgen, wie geht es dir?</p></div>"})
    assert html.languages[0].language_code == "de"


def test_supported_languages_with_display_names(client):
    response = client.get_supported_languages(request={"parent": PARENT, "display_language_code": "es"})
    by_code = {lang.language_code: lang for lang in response.languages}
    assert by_code["en"].display_name == "inglés" and by_code["en"].support_source and by_code["en"].support_target
    assert by_code["ca"].display_name == "catalán"
    plain = client.get_supported_languages(request={"parent": "projects/my-project"})
    assert all(lang.display_name == "" for lang in plain.languages)
    assert {lang.language_code for lang in plain.languages} == set(by_code)


def test_a_docx_translated(client):
    original = ds.make_docx(paragraphs=5)
    response = client.translate_document(request={
        "parent": PARENT, "target_language_code": "es",
        "document_input_config": {"content": original, "mime_type": DOCX}})
    translation = response.document_translation
    assert translation.mime_type == DOCX and translation.detected_language_code == "en"
    ds.assert_translated_document("docx", original, translation.byte_stream_outputs[0])


def test_refusals_in_googles_envelope(client, server):
    with pytest.raises(google.api_core.exceptions.BadRequest):
        client.translate_text(request={"parent": PARENT, "contents": ["Hello"], "target_language_code": "xx-invalid-"})
    with pytest.raises(google.api_core.exceptions.BadRequest, match="PDF"):
        client.translate_document(request={"parent": PARENT, "target_language_code": "es",
                                           "document_input_config": {"content": b"%PDF-1.4\n", "mime_type": "application/pdf"}})
    with pytest.raises(google.api_core.exceptions.NotFound, match="Glossary"):
        client.translate_text(request={"parent": PARENT, "contents": ["Hello"], "source_language_code": "en", "target_language_code": "es",
                                       "glossary_config": {"glossary": f"{PARENT}/glossaries/terms"}})
    with pytest.raises(google.api_core.exceptions.BadRequest, match="sourceLanguageCode is required"):
        client.translate_text(request={"parent": PARENT, "contents": ["Hello"], "target_language_code": "es",
                                       "glossary_config": {"glossary": f"{PARENT}/glossaries/terms"}})
    # A field v3 does not have is refused, as proto3 JSON parsing refuses it, never ignored.
    status, _, body = call(server, "POST", f"/v3/{PARENT}:translateText",
                           json.dumps({"contents": ["Hello"], "targetLanguageCode": "es", "sourceLanguage": "en"}).encode(),
                           {"Content-Type": "application/json"})
    error = json.loads(body)["error"]
    assert status == 400 and error["status"] == "INVALID_ARGUMENT" and "sourceLanguage" in error["message"]
    assert error["details"][0]["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"


def test_curl_shapes_as_the_readme_shows_them(server):
    status, _, body = call(server, "POST", f"/v3/{PARENT}:translateText?$alt=json;enum-encoding=int",
                           json.dumps({"contents": ["Good morning"], "targetLanguageCode": "es"}).encode(),
                           {"Content-Type": "application/json"})
    assert status == 200
    assert json.loads(body) == {"translations": [{"translatedText": "Buenos días", "detectedLanguageCode": "en"}]}
    status, _, body = call(server, "POST", f"/v3/{PARENT}:translateDocument", json.dumps({
        "targetLanguageCode": "es", "documentInputConfig": {"content": base64.b64encode(ds.make_docx()).decode(), "mimeType": DOCX},
    }).encode(), {"Content-Type": "application/json"})
    assert status == 200 and json.loads(body)["documentTranslation"]["mimeType"] == DOCX


def test_v2_is_unaffected(server):
    status, _, body = call(server, "GET", "/language/translate/v2?q=Good+morning&target=es&source=en&format=text")
    assert status == 200 and json.loads(body)["data"]["translations"][0]["translatedText"] == "Buenos días"


def test_keys_and_quotas_through_the_access_layer(tmp_path):
    """`--require-keys` covers v3 like every dialect: no key is refused, a key in v3's own way
    (x-goog-api-key from api_key credentials, or an OAuth bearer token) is charged, and a spent
    quota is refused in v3's envelope."""
    store = str(tmp_path / "glossa.db")
    made = subprocess.run([glossa_binary(), "keys", "create", "--json", "--chars-per-month", "40", "--database", store],
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    key = json.loads(made.stdout)["key"]
    keyed = Server(glossa_binary(), "--require-keys", "--database", store)
    try:
        def v3(credentials):
            return translate_v3.TranslationServiceClient(credentials=credentials, transport="rest",
                                                         client_options={"api_endpoint": keyed.url})
        request = {"parent": PARENT, "contents": ["Good morning"], "source_language_code": "en", "target_language_code": "es"}
        with pytest.raises(google.api_core.exceptions.Forbidden):
            v3(AnonymousCredentials()).translate_text(request=request)
        assert v3(api_key.Credentials(key)).translate_text(request=request).translations[0].translated_text == "Buenos días"
        status, _, body = call(keyed, "POST", f"/v3/{PARENT}:translateText",
                               json.dumps({"contents": ["Good morning"], "sourceLanguageCode": "en", "targetLanguageCode": "es"}).encode(),
                               {"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
        assert status == 200, body
        # 24 of 40 characters are spent: 20 more are over the quota.
        with pytest.raises(google.api_core.exceptions.Forbidden, match="Limit"):
            v3(api_key.Credentials(key)).translate_text(request={**request, "contents": ["Good morning, my friend"]})
    finally:
        assert keyed.stop() == 0


def test_glossaries_made_elsewhere_are_listed_read_used_and_deleted(client, server):
    """v3's glossaries are the store's: one made through DeepL's API is listed, read and used by
    translateText's and translateDocument's glossaryConfig (the answer has both translations, as
    v3 gives them) and deleted; making one through v3 (entries from Cloud Storage) is refused, saying how instead."""
    assert list(client.list_glossaries(request={"parent": PARENT})) == []
    with pytest.raises(google.api_core.exceptions.NotFound):
        client.get_glossary(request={"name": f"{PARENT}/glossaries/terms"})
    status, _, body = call(server, "POST", "/v2/glossaries", json.dumps({"name": "terms", "source_lang": "en", "target_lang": "es",
                                                                        "entries": "house\thogar", "entries_format": "tsv"}).encode(),
                           {"Content-Type": "application/json", "Authorization": "DeepL-Auth-Key k"})
    assert status == 201, body
    name = f"{PARENT}/glossaries/{json.loads(body)['glossary_id']}"
    listed = list(client.list_glossaries(request={"parent": PARENT}))
    assert [g.name for g in listed] == [name] and listed[0].entry_count == 1
    assert client.get_glossary(request={"name": name}).language_pair.target_language_code == "es"
    answer = client.translate_text(request={"parent": PARENT, "contents": ["My house.", "HOUSE"], "source_language_code": "en",
                                            "target_language_code": "es", "mime_type": "text/plain",
                                            "glossary_config": {"glossary": name, "ignore_case": True}})
    assert "casa" in answer.translations[0].translated_text
    assert [t.translated_text for t in answer.glossary_translations] == ["Mi hogar.", "hogar"]
    assert answer.glossary_translations[0].glossary_config.glossary == name
    # A document with the glossary: both translations, the glossary's with its term.
    original = ds.make_docx(paragraphs=2)
    response = client.translate_document(request={
        "parent": PARENT, "source_language_code": "en", "target_language_code": "es",
        "document_input_config": {"content": original, "mime_type": DOCX}, "glossary_config": {"glossary": name}})
    assert response.glossary_config.glossary == name
    ds.assert_translated_document("docx", original, response.document_translation.byte_stream_outputs[0])
    glossed = response.glossary_document_translation.byte_stream_outputs[0]
    ds.assert_translated_document("docx", original, glossed)
    import io
    import zipfile
    assert "hogar" in zipfile.ZipFile(io.BytesIO(glossed)).read("word/document.xml").decode()
    assert "hogar" not in zipfile.ZipFile(io.BytesIO(response.document_translation.byte_stream_outputs[0])).read("word/document.xml").decode()
    client.delete_glossary(request={"name": name}).result(timeout=60)
    with pytest.raises(google.api_core.exceptions.NotFound):
        client.get_glossary(request={"name": name})
    with pytest.raises(google.api_core.exceptions.BadRequest, match="cannot be created"):
        client.create_glossary(request={"parent": PARENT, "glossary": {
            "name": f"{PARENT}/glossaries/terms",
            "language_pair": {"source_language_code": "en", "target_language_code": "es"},
            "input_config": {"gcs_source": {"input_uri": "gs://bucket/terms.tsv"}}}})
