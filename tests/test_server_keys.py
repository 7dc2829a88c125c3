"""API keys, quotas and rate limits as the real clients see them: `glossa keys create` makes keys
in a SQLite store, `glossa serve --require-keys` checks them, and google-cloud-translate,
google-api-python-client, libretranslatepy and deepl each raise their own exception for an invalid
key, a rate limit and a spent quota; DeepL's get_usage() shows the real count. Keys never appear
in the server's output or in `glossa keys list` after creation."""
import json
import os
import subprocess
import time
import urllib.error

import deepl
import google.api_core.exceptions
import pytest
from google.auth import api_key
from google.cloud import translate_v2
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from libretranslatepy import LibreTranslateAPI

from glossa_server import Server, call, glossa_binary, require_serve


def keys(database: str, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([glossa_binary(), "keys", *arguments, "--database", database],
                          capture_output=True, text=True, timeout=120)


def create(database: str, *limits: str) -> str:
    made = keys(database, "create", "--json", *limits)
    assert made.returncode == 0, made.stderr
    return json.loads(made.stdout)["key"]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return str(tmp_path_factory.mktemp("keys") / "glossa.db")


@pytest.fixture(scope="module")
def keyed(store):
    binary = glossa_binary()
    require_serve(binary)
    s = Server(binary, "--require-keys", "--database", store, "--requests-per-minute-per-address", "3")
    yield s
    assert s.stop() == 0


@pytest.fixture(scope="module")
def good(store):
    """A key with room for everything the tests translate."""
    return create(store, "--name", "good", "--chars-per-month", "100000")


def google_client(server, key):
    return translate_v2.Client(credentials=api_key.Credentials(key), client_options={"api_endpoint": server.url})


def discovery(server, key):
    return build("translate", "v2", developerKey=key, static_discovery=True,
                 client_options={"api_endpoint": server.url + "/language/translate/"})


def test_google_cloud_translate_exceptions(keyed, store, good):
    assert google_client(keyed, good).translate("The cat is black.", source_language="en", target_language="es")[
        "translatedText"] == "El gato es negro."
    with pytest.raises(google.api_core.exceptions.BadRequest) as invalid:
        google_client(keyed, "not-a-key").translate("Hello", target_language="es")
    assert "API key not valid" in invalid.value.message
    small = create(store, "--name", "small", "--chars-per-month", "12")
    google_client(keyed, small).translate("Good morning", source_language="en", target_language="es")
    with pytest.raises(google.api_core.exceptions.Forbidden) as quota:
        google_client(keyed, small).translate("!", source_language="en", target_language="es")
    assert "Daily Limit Exceeded" in quota.value.message
    slow = create(store, "--name", "slow", "--requests-per-minute", "1")
    google_client(keyed, slow).translate("Hello", source_language="en", target_language="es")
    with pytest.raises(google.api_core.exceptions.Forbidden) as rate:
        google_client(keyed, slow).translate("Hello", source_language="en", target_language="es")
    assert "User Rate Limit Exceeded" in rate.value.message


def test_google_api_python_client_reasons(keyed, store, good):
    response = discovery(keyed, good).translations().list(q=["Good morning"], target="es", source="en").execute()
    assert response["translations"][0]["translatedText"] == "Buenos días"
    with pytest.raises(HttpError) as invalid:
        discovery(keyed, "glossa_wrong").translations().list(q=["hi"], target="es").execute()
    assert invalid.value.resp.status == 400 and invalid.value.error_details[0]["reason"] == "keyInvalid"
    small = create(store, "--chars-per-month", "4")
    with pytest.raises(HttpError) as quota:
        discovery(keyed, small).translations().list(q=["Hello"], target="es", source="en").execute()
    assert quota.value.resp.status == 403 and quota.value.error_details[0]["reason"] == "dailyLimitExceeded"
    assert int(quota.value.resp["retry-after"]) > 0


def test_libretranslatepy_sees_libretranslates_key_errors(keyed, store, good):
    assert LibreTranslateAPI(keyed.url, good).translate("The cat is black.", "en", "es") == "El gato es negro."
    with pytest.raises(urllib.error.HTTPError) as missing:
        LibreTranslateAPI(keyed.url).translate("Hello", "en", "es")
    assert missing.value.code == 400
    assert json.loads(missing.value.read()) == {"error": "Please contact the server operator to get an API key"}
    with pytest.raises(urllib.error.HTTPError) as invalid:
        LibreTranslateAPI(keyed.url, "nope").translate("Hello", "en", "es")
    assert invalid.value.code == 403 and json.loads(invalid.value.read()) == {"error": "Invalid API key"}
    slow = create(store, "--requests-per-minute", "2")
    for _ in range(2):
        LibreTranslateAPI(keyed.url, slow).translate("Hello", "en", "es")
    with pytest.raises(urllib.error.HTTPError) as rate:
        LibreTranslateAPI(keyed.url, slow).translate("Hello", "en", "es")
    assert rate.value.code == 429 and int(rate.value.headers["Retry-After"]) > 0
    assert json.loads(rate.value.read()) == {"error": "Slowdown: 2 per 1 minute"}
    status, _, body = call(keyed, "GET", "/frontend/settings")
    assert status == 200 and json.loads(body)["keyRequired"] is True and json.loads(body)["apiKeys"] is True


def test_deepl_exceptions_and_real_usage(keyed, store, monkeypatch):
    key = create(store, "--name", "deepl", "--chars-per-month", "40")
    translator = deepl.Translator(key, server_url=keyed.url)
    assert translator.get_usage().character.count == 0
    assert translator.translate_text("The cat is black.", target_lang="ES").text == "El gato es negro."
    usage = translator.get_usage()
    assert usage.character.count == len("The cat is black.") and usage.character.limit == 40
    assert not usage.any_limit_reached
    translator.translate_text(["Good morning", "¡Hola!"], source_lang="EN", target_lang="ES")
    with pytest.raises(deepl.QuotaExceededException):
        translator.translate_text("I would like to buy a ticket.", source_lang="EN", target_lang="ES")
    # The refused request is not charged: 17 + 12 + 6 code points.
    assert translator.get_usage().character.count == 35
    with pytest.raises(deepl.AuthorizationException):
        deepl.Translator("glossa_" + "A" * 43, server_url=keyed.url).translate_text("Hello", source_lang="EN", target_lang="ES")
    # deepl retries a 429 (up to 5 times by default, with backoff); one retry is enough to show it.
    monkeypatch.setattr(deepl.http_client, "max_network_retries", 1)
    slow = deepl.Translator(create(store, "--requests-per-minute", "1"), server_url=keyed.url)
    slow.translate_text("Hello", source_lang="EN", target_lang="ES")
    with pytest.raises(deepl.TooManyRequestsException):
        slow.translate_text("Hello", source_lang="EN", target_lang="ES")


def test_apy_stays_open_and_keyless_callers_are_limited_per_address(keyed):
    # APy has no keys: open under --require-keys. Callers without a key count against their
    # address's limit (3 per minute here), answered in each protocol's signal.
    statuses = [call(keyed, "GET", "/translate?langpair=en|es&q=hello")[0] for _ in range(4)]
    assert statuses[:3] == [200, 200, 200] and statuses[3] == 429
    status, headers, body = call(keyed, "GET", "/translate?langpair=en|es&q=hello")
    assert status == 429 and int(headers["Retry-After"]) > 0
    assert json.loads(body)["code"] == 429


def test_keys_are_never_logged_or_shown_again(keyed, store, good):
    listed = keys(store, "list", "--json")
    usage = keys(store, "usage", "--json")
    assert listed.returncode == 0 and usage.returncode == 0
    every = [create(store, "--name", "probe"), good]
    for key in every:
        call(keyed, "GET", f"/language/translate/v2?q=hello&source=en&target=es&key={key}")
        call(keyed, "GET", f"/language/translate/v2?q=hello&source=en&target=es&key={key[:-1]}x")
    output = "".join(keyed.lines)
    for text in [output, keys(store, "list", "--json").stdout, keys(store, "list").stdout, keys(store, "usage").stdout,
                 keys(store, "usage", "probe", "--json").stdout]:
        for key in every:
            assert key not in text and key[len("glossa_"):] not in text
    records = json.loads(keys(store, "list", "--json").stdout)
    assert all("key" not in record for record in records)
    assert {"good", "probe"} <= {record["name"] for record in records}


def test_revoked_key_is_refused(keyed, store):
    key = create(store, "--name", "revoke-me")
    assert call(keyed, "GET", f"/language/translate/v2?q=hello&source=en&target=es&key={key}")[0] == 200
    revoked = keys(store, "revoke", "revoke-me", "--json")
    assert revoked.returncode == 0 and json.loads(revoked.stdout)["revoked"] is not None
    # A request sent a second after the revocation (so arriving no earlier) is refused.
    time.sleep(1.0)
    assert call(keyed, "GET", f"/language/translate/v2?q=hello&source=en&target=es&key={key}")[0] == 400


def test_bad_config_and_database_are_usage_errors(tmp_path):
    binary = glossa_binary()
    config = tmp_path / "glossa.json"
    config.write_text('{"keys": {"google_v2": "maybe"}}')
    ran = subprocess.run([binary, "serve", "--config", str(config)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2 and "keys.google_v2 must be off, optional or required" in ran.stderr
    config.write_text('{"port": "80"}')
    ran = subprocess.run([binary, "serve", "--config", str(config)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2 and "port must be" in ran.stderr
    ran = subprocess.run([binary, "keys", "list", "--database", "mysql://x/y"], capture_output=True, text=True, timeout=120)
    assert ran.returncode != 0 and "unsupported database URL scheme" in ran.stderr
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    made = subprocess.run([binary, "keys", "create", "--name", "xdg"], capture_output=True, text=True, timeout=120, env=env)
    assert made.returncode == 0 and made.stdout.startswith("glossa_")
    assert (tmp_path / "xdg" / "glossa" / "glossa.db").exists()
