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
