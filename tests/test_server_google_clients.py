"""Google Cloud Translation v2 as real client libraries speak it, against a live `glossa serve`
with the real Apertium eng-spa pair: google-cloud-translate (translate_v2.Client) with anonymous
and API-key credentials, and google-api-python-client built from its static discovery document."""
import google.api_core.exceptions
import pytest
from google.auth import api_key
from google.auth.credentials import AnonymousCredentials
from google.cloud import translate_v2
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

from glossa_server import server  # noqa: F401  (the fixture)

SENTENCES = ["Good morning", "The cat is black.", "I would like to buy a ticket to Madrid."]
EXPECTED = ["Buenos días", "El gato es negro.", "Me gustaría comprar una entrada a Madrid."]


@pytest.fixture(params=["anonymous", "api_key"])
def client(request, server):
    credentials = AnonymousCredentials() if request.param == "anonymous" else api_key.Credentials("test-key")
    return translate_v2.Client(credentials=credentials, client_options={"api_endpoint": server.url})


def test_translate_a_list_in_order(client):
    results = client.translate(SENTENCES, target_language="es", source_language="en", format_="text")
    assert [r["translatedText"] for r in results] == EXPECTED
    assert [r["input"] for r in results] == SENTENCES
    assert all("detectedSourceLanguage" not in r for r in results)


def test_translate_detects_the_source_when_omitted(client):
    result = client.translate("The cat is black.", target_language="es", format_="text")
    assert result["translatedText"] == "El gato es negro."
    assert result["detectedSourceLanguage"] == "en"


def test_translate_default_format_is_html_and_escapes_text(client):
    # Google's default format is html: text comes back HTML-escaped, tags are kept.
    result = client.translate("<b>The cat</b> is \"black\".", target_language="es", source_language="en")
    assert result["translatedText"] == "<b>El gato</b> es &quot;negro&quot;."


def test_model_is_accepted_and_echoed(client):
    result = client.translate("Good morning", target_language="es", source_language="en", model="nmt")
    assert result["translatedText"] == "Buenos días"
    assert result["model"] == "nmt"


def test_detect_one_result_per_input(client):
    results = client.detect_language(["The weather is very nice today and we are going to the beach.",
                                      "El tiempo es muy bueno hoy y vamos a la playa."])
    assert [r["language"] for r in results] == ["en", "es"]
    assert all(0.0 <= r["confidence"] <= 1.0 for r in results)


def test_languages_with_localized_names(client):
    languages = client.get_languages(target_language="es")
    by_code = {entry["language"]: entry["name"] for entry in languages}
    assert by_code["en"] == "inglés"
    assert by_code["es"] == "español"
    plain = client.get_languages(target_language="")  # no target: codes only
    assert all("name" not in entry for entry in plain)
    assert "en" in {entry["language"] for entry in plain}


def test_unknown_target_is_bad_request(client):
    with pytest.raises(google.api_core.exceptions.BadRequest) as caught:
        client.translate("Good morning", target_language="xx", source_language="en")
    assert "xx" in caught.value.message
    assert caught.value.errors[0]["reason"] == "invalid"


def test_unsupported_pair_is_bad_request(client):
    with pytest.raises(google.api_core.exceptions.BadRequest) as caught:
        client.translate("Good morning", target_language="ja", source_language="en")
    assert caught.value.errors[0]["reason"] == "badRequest"


@pytest.fixture
def discovery(server):
    # static_discovery=True reads the discovery document shipped in the package: no network.
    return build("translate", "v2", developerKey="test-key", static_discovery=True,
                 client_options={"api_endpoint": server.url + "/language/translate/"})


def test_discovery_client_get_with_repeated_q(discovery):
    response = discovery.translations().list(q=SENTENCES[:2], target="es", source="en", format="text").execute()
    assert [t["translatedText"] for t in response["translations"]] == EXPECTED[:2]


def test_discovery_client_post_wrapped_in_data(discovery):
    response = discovery.translations().translate(
        body={"q": SENTENCES, "target": "es", "source": "en", "format": "text"}).execute()
    assert [t["translatedText"] for t in response["translations"]] == EXPECTED


def test_discovery_client_detect_and_languages(discovery):
    detections = discovery.detections().list(q=["The weather is very nice today and we are going to the beach."]).execute()
    assert len(detections["detections"]) == 1 and len(detections["detections"][0]) == 1
    assert detections["detections"][0][0]["language"] == "en"
    languages = discovery.languages().list(target="en").execute()
    assert {"language": "es", "name": "Spanish"} in languages["languages"]


def test_discovery_client_error(discovery):
    with pytest.raises(HttpError) as caught:
        discovery.translations().list(q=["hi"], target="xx").execute()
    assert caught.value.resp.status == 400
