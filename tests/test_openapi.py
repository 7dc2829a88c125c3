"""`/openapi.json` against the real server: it is a valid OpenAPI 3 document (openapi-spec-validator,
the validator most OpenAPI tooling uses), and what it says holds on the wire: every answer the
server gives a documented operation has a documented status, a 200's media type is the
documented one, a required parameter is really required, and the stream's per-line reasons are
the ones its schema lists. (That every path the router serves is documented is checked from the
router's own table in Tests/ServerAPITests/OperationsTests.swift.)"""
import json

import pytest
from openapi_spec_validator import validate

from glossa_server import call, server  # noqa: F401  (the fixture)


@pytest.fixture(scope="module")
def document(server):
    status, headers, body = call(server, "GET", "/openapi.json")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    return json.loads(body)


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield path, method.upper(), operation


def concrete(path):
    return path.replace("{filename}", "x.txt")


def test_the_document_validates(document):
    validate(document)
    ids = [op["operationId"] for _, _, op in operations(document)]
    assert len(ids) == len(set(ids))


def test_the_pages_and_the_api_are_all_there(document):
    paths = document["paths"]
    for path in ["/", "/overlay.js", "/overlay-demo", "/app.js", "/app.css", "/health", "/glossa/v1/health", "/metrics", "/openapi.json",
                 "/language/translate/v2", "/translate", "/glossa/v1/translate/stream", "/v2/translate", "/spec"]:
        assert path in paths, path


# Requests any client might send: none of the parameters, an empty JSON body, a form with only q,
# and a request whose every parameter is present but a language is not one.
ATTEMPTS = [
    (None, {}),
    (b"{}", {"Content-Type": "application/json"}),
    (b"q=hi", {"Content-Type": "application/x-www-form-urlencoded"}),
    (b"q=hi&target=zz-nope&source=en&langpair=en|zz&target_lang=ZZ&text=hi",
     {"Content-Type": "application/x-www-form-urlencoded"}),
]


def test_every_answer_has_a_documented_status(server, document):
    undocumented = []
    for path, method, operation in operations(document):
        for body, headers in (ATTEMPTS if method == "POST" else ATTEMPTS[:1]):
            status, _, answer = call(server, method, concrete(path), body, headers)
            if str(status) not in operation["responses"]:
                undocumented.append(f"{method} {path} → {status} ({answer[:80]!r}); documented {list(operation['responses'])}")
    assert not undocumented, "\n".join(undocumented)


def test_a_200_has_the_documented_media_type(server, document):
    for path, method, operation in operations(document):
        if method != "GET" or any(p.get("required") for p in operation.get("parameters", [])):
            continue
        status, headers, _ = call(server, "GET", concrete(path))
        if status != 200:
            continue
        documented = operation["responses"]["200"].get("content", {})
        served = headers["Content-Type"].split(";")[0].strip()
        assert any(t.split(";")[0].strip() == served for t in documented), (path, served, list(documented))


def test_a_required_query_parameter_is_really_required(server, document):
    """A GET's required parameters, each left out in turn from a request that has the rest: refused."""
    values = {"q": "Hello", "target": "es", "source": "en", "langpair": "en|es", "v": "1.0", "text": "Hello",
              "target_lang": "ES", "auth_key": "x"}
    from urllib.parse import urlencode
    checked = 0
    for path, method, operation in operations(document):
        query = [p for p in operation.get("parameters", []) if p["in"] == "query"]
        required = [p["name"] for p in query if p.get("required")]
        if method != "GET" or not required:
            continue
        for left_out in required:
            params = {name: values.get(name, "x") for name in required if name != left_out}
            status, _, body = call(server, "GET", f"{concrete(path)}?{urlencode(params)}")
            assert str(status) in operation["responses"], (path, left_out, status)
            # AJAX v1 answers HTTP 200 and puts the refusal in responseStatus, as its 200 says.
            refused = status if status != 200 else json.loads(body).get("responseStatus", 200)
            assert 400 <= refused < 500, (path, left_out, status, body[:120])
            checked += 1
    assert checked >= 3


def test_a_post_takes_its_parameters_in_the_body_not_as_required_query_parameters(document):
    for path, method, operation in operations(document):
        if method != "POST":
            continue
        assert not [p for p in operation.get("parameters", []) if p["in"] == "query" and p.get("required")], path


def test_health_documents_its_503(document):
    for path in ["/health", "/glossa/v1/health"]:
        assert {"200", "503"} <= set(document["paths"][path]["get"]["responses"])


def test_the_streams_line_reasons_are_the_documented_ones(server, document):
    post = document["paths"]["/glossa/v1/translate/stream"]["post"]
    schema = post["responses"]["200"]["content"]["application/x-ndjson"]["schema"]
    error_line = next(s for s in schema["oneOf"] if "error" in s["properties"])
    reasons = set(error_line["properties"]["error"]["properties"]["reason"]["enum"])
    assert {"unsupportedTargetLanguage", "unsupportedPair", "unableToIdentifyLanguage"} <= reasons
    # A target no pair reaches, and text in a language no pair translates from: each line says
    # why, with a listed reason.
    failed = []
    russian = "Сегодня прекрасная погода, и мы идём на пляж с друзьями."
    for request in [{"q": ["Hello", "Good morning"], "source": "en", "target": "xh"}, {"q": [russian], "target": "es"}]:
        status, _, answer = call(server, "POST", "/glossa/v1/translate/stream", json.dumps(request).encode(),
                                 {"Content-Type": "application/json"})
        assert status == 200
        lines = [json.loads(line) for line in answer.decode().splitlines()]
        assert lines[-1]["done"] and lines[-1]["errors"] == len(request["q"])
        failed += [line["error"]["reason"] for line in lines if "error" in line]
    assert failed == ["unsupportedTargetLanguage"] * 2 + ["unsupportedSourceLanguage"], failed
    assert set(failed) <= reasons
    # Text with no language in it is no error: it comes back as it is, its source `und`.
    status, _, answer = call(server, "POST", "/glossa/v1/translate/stream", json.dumps({"q": ["12345"], "target": "es"}).encode(),
                             {"Content-Type": "application/json"})
    line = json.loads(answer.decode().splitlines()[0])
    assert (line["translatedText"], line["sourceLanguage"]) == ("12345", "und"), line


def test_every_answer_has_a_schema_and_every_reference_resolves(document):
    """Every documented answer with a body says its shape: a named schema for JSON (each dialect's
    answers and error envelope, from Sources/ServerAPI/OpenAPI/Schemas/), a string for text and files."""
    schemas = document["components"]["schemas"]
    untyped, unresolved = [], []

    def refs(value):
        if isinstance(value, dict):
            if "$ref" in value:
                yield value["$ref"]
            for item in value.values():
                yield from refs(item)
        elif isinstance(value, list):
            for item in value:
                yield from refs(item)

    answers = 0
    for path, method, operation in operations(document):
        for status, response in operation["responses"].items():
            answers += 1
            if int(status) >= 400 and "content" not in response:
                untyped.append(f"{method} {path} {status}: no body documented")
            for media, content in response.get("content", {}).items():
                if not content.get("schema"):
                    untyped.append(f"{method} {path} {status} {media}")
    for ref in refs(document):
        if ref.removeprefix("#/components/schemas/") not in schemas:
            unresolved.append(ref)
    assert not untyped, "\n".join(untyped)
    assert not unresolved, unresolved
    assert answers > 700 and len(schemas) > 60, (answers, len(schemas))


def test_each_protocol_answers_in_its_own_shape(document):
    def ok(path, method="get"):
        return document["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]

    def error(path, status, method="get"):
        return document["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]

    assert ok("/language/translate/v2") == "google_v2.TranslateResponse"
    assert ok("/v3/projects/{project}:translateText", "post") == "google_v3.TranslateTextResponse"
    assert ok("/v2/translate", "post") == "deepl.TranslateResponse"
    assert ok("/detect", "post") == "libretranslate.DetectResponse"
    assert ok("/listPairs") == "apy.ListResponse"
    assert ok("/ajax/services/language/translate") == "ajax_v1.TranslateResponse"
    assert ok("/glossa/v1/pairs") == "glossa.Pairs"
    assert error("/language/translate/v2", "400") == "google_v2.Error"
    assert error("/v3/projects/{project}:translateText", "403", "post") == "google_v3.Error"
    assert error("/v2/translate", "456", "post") == "deepl.Error"
    assert error("/detect", "429", "post") == "libretranslate.Error"
    assert error("/listPairs", "400") == "apy.Error"
    assert error("/health", "503") == "glossa.Health"
    # /translate is APy's and LibreTranslate's: a POST's answer is either protocol's.
    translate = document["paths"]["/translate"]["post"]["responses"]
    assert {s["$ref"].split("/")[-1] for s in translate["200"]["content"]["application/json"]["schema"]["anyOf"]} == \
        {"apy.TranslateResponse", "libretranslate.TranslateResponse"}
    # Files and text are strings; JSONP answers are documented beside JSON where callback is taken.
    assert document["paths"]["/metrics"]["get"]["responses"]["200"]["content"]["text/plain"]["schema"] == {"type": "string"}
    assert document["paths"]["/v2/document/{document_id}/result"]["get"]["responses"]["200"]["content"][
        "application/octet-stream"]["schema"] == {"type": "string", "format": "binary"}
    assert "text/javascript" in document["paths"]["/language/translate/v2"]["get"]["responses"]["200"]["content"]
    # DeepL's glossaries: made (201) and deleted (204) as DeepL answers them.
    assert "201" in document["paths"]["/v2/glossaries"]["post"]["responses"]
    assert "204" in document["paths"]["/v3/glossaries/{glossary_id}"]["delete"]["responses"]


def test_the_stream_documents_its_403_and_its_envelope(document):
    """A missing key or a key's limit is a 403 on the stream (Google's classification), not a 400."""
    responses = document["paths"]["/glossa/v1/translate/stream"]["post"]["responses"]
    assert {"400", "403", "413", "429", "503"} <= set(responses), list(responses)
    for status in ["400", "403", "413", "429", "503"]:
        assert responses[status]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/glossa.Error"}
