"""The web app and the overlay, in real headless Chromium against a live `glossa serve`.

Every step saves a screenshot under test-output/screenshots/. GLOSSA_URL runs the tests against a
server that is already running instead of starting one.
"""
import os
import pathlib
import shutil
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from webapp_support import (chromium, console_errors, create_key, full_page_screenshot, glossa_serve, new_data_folder,
                             screenshot, wait_for)


@pytest.fixture(scope="module")
def base_url(request):
    if os.environ.get("GLOSSA_URL"):
        yield os.environ["GLOSSA_URL"].rstrip("/")
        return
    with glossa_serve(request.getfixturevalue("glossa_bin")) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    driver = chromium("en-US")
    yield driver
    driver.quit()


@pytest.fixture
def app(browser, base_url):
    """The app at `/`, loaded and ready; fails the test on any console error."""
    browser.get(base_url + "/")
    wait_for(browser, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"),
             message="the app did not finish loading its languages")
    yield browser
    assert console_errors(browser) == []


def by_id(driver, element_id):
    return driver.find_element(By.ID, element_id)


def text_of(driver, element_id):
    return by_id(driver, element_id).text


def set_value(driver, element_id, value):
    """Puts `value` in a field as a paste would (fast for long texts) and fires `input`."""
    driver.execute_script(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
        "e.dispatchEvent(new Event('input', {bubbles: true}));", element_id, value)


def pick_target(driver, search, code):
    box = by_id(driver, "target-search")
    box.clear()
    box.send_keys(search)
    option = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#target-list li[data-code="{code}"]'))
    option.click()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#target-list li[data-code="{code}"]')
             .get_attribute("aria-selected") == "true")


def test_editor_detect_pick_translate_again_and_swap(app):
    d = app
    screenshot(d, "editor-1-empty")
    by_id(d, "source-text").send_keys("Good morning")
    by_id(d, "detect").click()
    wait_for(d, lambda d: "English" in text_of(d, "detected"), message="English was not detected")
    assert "% confidence" in text_of(d, "detected")
    screenshot(d, "editor-2-detected")

    # The list offers only the languages English can go into, by their English names.
    offered = [li.get_attribute("data-code") for li in d.find_elements(By.CSS_SELECTOR, "#target-list li[data-code]")]
    assert "es" in offered and "en" not in offered
    # A pair that goes through a pivot says so.
    assert "via Spanish" in d.find_element(By.CSS_SELECTOR, '#target-list li[data-code="fr"]').text
    assert "via" not in d.find_element(By.CSS_SELECTOR, '#target-list li[data-code="es"]').text
    pick_target(d, "Span", "es")
    screenshot(d, "editor-3-picked-spanish")
    by_id(d, "translate").click()
    wait_for(d, lambda d: "Buenos días" in text_of(d, "translation"), message="no Spanish translation")
    assert text_of(d, "translation-meta") == "English → Spanish"
    screenshot(d, "editor-4-translated")
    # Copy puts the translation on the clipboard.
    d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    by_id(d, "copy").click()
    wait_for(d, lambda d: text_of(d, "copy") == "Copied", message="Copy did not copy")
    clipboard = d.execute_async_script("navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('ERR ' + e))")
    assert clipboard == text_of(d, "translation")

    # Translate again into another language without retyping: the chips offer the other targets.
    chips = d.find_elements(By.CSS_SELECTOR, "#again-list button")
    assert chips and all(c.get_attribute("data-code") != "es" for c in chips)
    other = chips[0].get_attribute("data-code")
    chips[0].click()
    # The name's own text, without the " via Spanish" note that a pivot target carries.
    wait_for(d, lambda d: text_of(d, "translation-meta").endswith(d.execute_script(
        "return document.querySelector('#target-list li[aria-selected=true] .name').firstChild.textContent")))
    wait_for(d, lambda d: text_of(d, "translation") and "Buenos días" not in text_of(d, "translation"))
    screenshot(d, "editor-5-again")

    # Swap: the translation becomes the text, the languages trade places, and it translates back.
    translated = text_of(d, "translation")
    by_id(d, "swap").click()
    wait_for(d, lambda d: by_id(d, "source-text").get_attribute("value") == translated)
    assert by_id(d, "source-select").get_attribute("value") == other
    wait_for(d, lambda d: text_of(d, "translation-meta").endswith("English"), message="did not translate back")
    assert text_of(d, "translation")
    screenshot(d, "editor-6-swapped")


def test_a_glossary_added_from_a_file_keeps_its_terms(app, tmp_path):
    d = app
    Select(by_id(d, "source-select")).select_by_value("en")
    pick_target(d, "Span", "es")
    terms = tmp_path / "house-terms.tsv"
    terms.write_text("house\thogar\nred\tcolorado\n")
    by_id(d, "glossary-file").send_keys(str(terms))
    wait_for(d, lambda d: "2 terms" in text_of(d, "glossary-status"), message="the glossary was not added")
    assert Select(by_id(d, "glossary-select")).first_selected_option.text == "house-terms.tsv (2 terms)"
    set_value(d, "source-text", "My house is red.")
    by_id(d, "translate").click()
    wait_for(d, lambda d: "hogar" in text_of(d, "translation"), message="the glossary's term is not in the translation")
    assert "colorado" in text_of(d, "translation")
    screenshot(d, "editor-glossary")
    # Without the glossary, the engine's own words come back.
    Select(by_id(d, "glossary-select")).select_by_value("")
    by_id(d, "translate").click()
    wait_for(d, lambda d: "casa" in text_of(d, "translation"), message="no plain translation")
    # A file with a bad line is refused with the service's message, naming the line.
    bad = tmp_path / "bad.tsv"
    bad.write_text("house\thogar\nsea\n")
    by_id(d, "glossary-file").send_keys(str(bad))
    wait_for(d, lambda d: "line 2" in text_of(d, "glossary-status"), message="the bad line was not named")
    # The browser logs that refusal (a 400), and nothing else went wrong.
    assert [e for e in console_errors(d) if "/v2/glossaries" not in e or "400" not in e] == []


def test_keyboard_ctrl_enter_translates(app):
    d = app
    text = by_id(d, "source-text")
    text.send_keys("The house is red.")
    pick_target(d, "Spa", "es")
    text.send_keys(Keys.CONTROL, Keys.ENTER)
    wait_for(d, lambda d: "casa" in text_of(d, "translation").lower(), message="Ctrl+Enter did not translate")
    # The source was not given: the service detected it and the app says so.
    assert "English" in text_of(d, "detected")


def selected_target(driver):
    return driver.execute_script("const s = document.querySelector('#target-list li[aria-selected=true]');"
                                 "return s ? s.dataset.code : null")


def test_the_default_target_is_never_the_source_and_a_same_language_request_says_so(app):
    d = app
    # An en-US browser: with the source to be detected, English is offered first...
    assert selected_target(d) in ("en", "en-US")
    set_value(d, "source-text", "The house is red and the cat is black.")
    by_id(d, "translate").click()
    # ...but English text is not "translated" into English: the app says so, shows no
    # translation, and another language is now selected.
    wait_for(d, lambda d: "already in English" in text_of(d, "editor-status"), message="no same-language notice")
    assert text_of(d, "translation") == ""
    assert by_id(d, "copy").get_attribute("disabled") is not None
    assert selected_target(d) not in (None, "en", "en-US")
    screenshot(d, "editor-7-same-language")
    # With English chosen as the source, the default target is another language from the start.
    Select(by_id(d, "source-select")).select_by_value("en")
    assert selected_target(d) not in (None, "en", "en-US")


def test_a_batch_says_which_lines_were_already_in_the_target_language(app):
    d = app
    by_id(d, "tab-batch").click()
    # Source detected per line; the default target is the browser's English.
    assert by_id(d, "batch-target").get_attribute("value") in ("en", "en-US")
    set_value(d, "batch-text", "The house is red and the cat is black.\nI like reading books in the garden.\n"
                               "La casa es roja y el gato es negro.")
    by_id(d, "batch-run").click()
    wait_for(d, lambda d: "3 of 3 done" in text_of(d, "batch-progress"), message="the batch did not finish")
    assert "2 already in English" in text_of(d, "batch-progress")
    rows = d.find_elements(By.CSS_SELECTOR, "#batch-results li")
    assert [r.get_attribute("class") for r in rows] == ["same", "same", "done"]
    assert "Already in English" in rows[0].find_element(By.CSS_SELECTOR, ".dst").text
    assert "house" in rows[2].find_element(By.CSS_SELECTOR, ".dst").text.lower()
    screenshot(d, "batch-2-same-language")
    # A chosen source: the default target is another language.
    Select(by_id(d, "batch-source")).select_by_value("en")
    assert by_id(d, "batch-target").get_attribute("value") not in ("", "en", "en-US")


def test_batch_fills_in_each_row(app, base_url):
    d = app
    by_id(d, "tab-batch").click()
    lines = ["Good morning", "", "The house is red.", "I like cats.", "The dog sleeps in the garden."]
    set_value(d, "batch-text", "\n".join(lines))
    d.find_element(By.CSS_SELECTOR, '#batch-target option[value="es"]').click()
    # Record the order in which rows fill in, as the page sees it.
    d.execute_script("""
        window.filled = [];
        new MutationObserver((records) => records.forEach((r) => {
          if (r.target.matches && r.target.matches('#batch-results li.done')) window.filled.push(Number(r.target.dataset.index));
        })).observe(document.getElementById('batch-results'), {subtree: true, attributes: true, attributeFilter: ['class']});""")
    by_id(d, "batch-run").click()
    wait_for(d, lambda d: "4 of 4 done" in text_of(d, "batch-progress"), message="the batch did not finish")
    screenshot(d, "batch-1-done")
    rows = d.find_elements(By.CSS_SELECTOR, "#batch-results li")
    assert [r.find_element(By.CSS_SELECTOR, ".src").text for r in rows] == [l for l in lines if l]
    results = [r.find_element(By.CSS_SELECTOR, ".dst").text for r in rows]
    assert "Buenos días" in results[0]
    assert "casa" in results[1].lower() and "gatos" in results[2].lower() and "jardín" in results[3].lower()
    assert all("done" in r.get_attribute("class") for r in rows)
    assert sorted(d.execute_script("return window.filled")) == [0, 1, 2, 3]
    assert "1 blank line skipped" in text_of(d, "batch-progress")
    # The rows came from the streaming endpoint, not from the fallback for servers without one.
    assert "no streaming endpoint" not in text_of(d, "batch-status")


def test_round_trip_shows_each_step_until_it_settles(app):
    d = app
    by_id(d, "tab-roundtrip").click()
    set_value(d, "rt-text", "The spirit is willing but the flesh is weak.")
    d.find_element(By.CSS_SELECTOR, '#rt-source option[value="en"]').click()
    d.find_element(By.CSS_SELECTOR, '#rt-via option[value="es"]').click()
    by_id(d, "rt-run").click()
    wait_for(d, lambda d: text_of(d, "rt-outcome"), message="the game did not end")
    steps = d.find_elements(By.CSS_SELECTOR, "#rt-steps-list li")
    assert len(steps) >= 3
    languages = [s.find_element(By.CSS_SELECTOR, ".lang").text for s in steps]
    assert languages[:3] == ["English", "Spanish", "English"]
    screenshot(d, "roundtrip-1-played")


def refusal(d, body):
    """What the service answers to `body` at /language/translate/v2, fetched by the page itself
    (outside the app's code): the HTTP status and the message of Google's error envelope."""
    return d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/language/translate/v2', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                         body: JSON.stringify(arguments[0])})
          .then(async (r) => { const b = await r.json(); done([r.status, b.error ? b.error.message : null]); })
          .catch((e) => done([0, String(e)]));""", body)


def test_oversize_text_shows_the_services_message_and_retry_works(app):
    d = app
    text = "Good morning. " * 80_000  # 1.1 MB of JSON: over the server's 1 MiB body limit
    code, message = refusal(d, {"q": [text], "target": "es", "format": "text"})
    assert code == 413 and message
    set_value(d, "source-text", text)
    pick_target(d, "Spa", "es")
    by_id(d, "translate").click()
    status = wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, "#editor-status.error"), message="no error shown")
    assert message in status.text and "HTTP 413" in status.text
    d.execute_script("document.getElementById('source-text').scrollTop = 0;"
                     "arguments[0].scrollIntoView({block: 'center'})", status)
    screenshot(d, "error-1-refused")
    # Fix the text, then Retry repeats the request with it.
    set_value(d, "source-text", "Good morning")
    status.find_element(By.CSS_SELECTOR, "button.retry").click()
    wait_for(d, lambda d: "Buenos días" in text_of(d, "translation"), message="Retry did not translate")
    assert "error" not in by_id(d, "editor-status").get_attribute("class")
    screenshot(d, "error-2-retried")
    # The browser logs the refused request itself; nothing else may have gone wrong.
    assert all("/language/translate/v2 - Failed to load resource" in e for e in console_errors(d))


def test_text_with_no_language_is_shown_unchanged_with_what_to_do(app):
    d = app
    # The service answers 200: the text unchanged, its source undetermined (und).
    set_value(d, "source-text", "12345 678")
    pick_target(d, "Spa", "es")  # the source stays "Detect language": the service must detect it
    by_id(d, "translate").click()
    status = wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, "#editor-status.info"), message="no notice shown")
    assert "no language" in status.text and "From" in status.text
    assert text_of(d, "translation") == "12345 678"
    assert by_id(d, "copy").get_attribute("disabled") is not None
    screenshot(d, "error-3-unidentified")
    set_value(d, "source-text", "The house is red.")
    by_id(d, "translate").click()
    wait_for(d, lambda d: "casa" in text_of(d, "translation").lower(), message="the next text was not translated")
    assert "info" not in by_id(d, "editor-status").get_attribute("class")
    assert not console_errors(d)


def test_phone_sized_layout_has_no_horizontal_overflow(browser, base_url):
    d = browser
    d.set_window_size(390, 844)
    try:
        d.get(base_url + "/")
        wait_for(d, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))
        by_id(d, "source-text").send_keys("Good morning")
        pick_target(d, "Spa", "es")
        by_id(d, "translate").click()
        wait_for(d, lambda d: "Buenos días" in text_of(d, "translation"))
        assert d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        d.execute_script("window.scrollTo(0, 0)")
        full_page_screenshot(d, "phone-1-translated")
        for tab in ("tab-batch", "tab-roundtrip"):
            by_id(d, tab).click()
            assert d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), tab
    finally:
        d.set_window_size(1100, 800)


def overlay_panel(d):
    return d.find_element(By.TAG_NAME, "glossa-overlay").shadow_root.find_element(By.CSS_SELECTOR, ".panel")


def test_overlay_replaces_a_marked_paragraph_and_a_selection(browser, base_url):
    d = browser
    d.get(base_url + "/overlay-demo")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#p1 glossa-action"), message="overlay.js did not start")
    screenshot(d, "overlay-1-demo")
    original = d.find_element(By.ID, "p1").text
    d.find_element(By.CSS_SELECTOR, "#p1 glossa-action").shadow_root.find_element(By.CSS_SELECTOR, "button").click()
    panel = wait_for(d, lambda d: overlay_panel(d) if "Replace with Translation" in overlay_panel(d).text else None,
                     message="no translation in the overlay")
    assert "Spanish → English" in panel.text
    assert "house" in panel.find_element(By.CSS_SELECTOR, ".text").text.lower()
    screenshot(d, "overlay-2-panel")
    d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    next(b for b in panel.find_elements(By.CSS_SELECTOR, "button") if b.text == "Copy").click()
    wait_for(d, lambda d: any(b.text == "Copied" for b in overlay_panel(d).find_elements(By.CSS_SELECTOR, "button")))
    clipboard = d.execute_async_script("navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('ERR ' + e))")
    assert clipboard == panel.find_element(By.CSS_SELECTOR, ".text").text
    next(b for b in panel.find_elements(By.CSS_SELECTOR, "button") if b.text == "Replace with Translation").click()
    wait_for(d, lambda d: d.find_element(By.ID, "p1").text != original)
    p1 = d.find_element(By.ID, "p1")
    assert "house" in p1.text.lower() and "casa" not in p1.text.lower()
    assert p1.get_attribute("lang").startswith("en")
    assert not overlay_panel(d).is_displayed()
    screenshot(d, "overlay-3-replaced")

    # A selection in an unmarked paragraph: the floating Translate button, then Replace.
    d.execute_script("""
        const p = document.getElementById('p3'); const range = document.createRange();
        range.selectNodeContents(p); const s = getSelection(); s.removeAllRanges(); s.addRange(range);
        document.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));""")
    fab = d.find_element(By.TAG_NAME, "glossa-overlay").shadow_root.find_element(By.CSS_SELECTOR, ".fab")
    wait_for(d, lambda d: fab.is_displayed(), message="no Translate button on the selection")
    screenshot(d, "overlay-4-selection")
    fab.click()
    panel = wait_for(d, lambda d: overlay_panel(d) if "Replace with Translation" in overlay_panel(d).text else None)
    next(b for b in panel.find_elements(By.CSS_SELECTOR, "button") if b.text == "Replace with Translation").click()
    wait_for(d, lambda d: "village" in d.find_element(By.ID, "p3").text.lower())
    assert "library" in d.find_element(By.ID, "p3").text.lower()
    assert console_errors(d) == []


def test_overlay_lets_the_reader_pick_when_the_browser_language_is_missing(base_url):
    d = chromium("de-DE", width=900, height=700)
    try:
        d.get(base_url + "/overlay-demo")
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#p4 glossa-action"))
        d.find_element(By.CSS_SELECTOR, "#p4 glossa-action").shadow_root.find_element(By.CSS_SELECTOR, "button").click()
        panel = wait_for(d, lambda d: overlay_panel(d) if overlay_panel(d).find_elements(By.CSS_SELECTOR, "select") else None)
        assert "your browser's language" in panel.text and "Deutsch" in panel.text
        screenshot(d, "overlay-5-pick-language")
        # The languages are named in the browser's language.
        english = panel.find_element(By.CSS_SELECTOR, 'select option[value="en"]')
        assert english.text == "Englisch"
        english.click()
        wait_for(d, lambda d: "Replace with Translation" in overlay_panel(d).text)
        assert "cats" in overlay_panel(d).find_element(By.CSS_SELECTOR, ".text").text.lower()
        assert console_errors(d) == []
    finally:
        d.quit()


def test_pair_codes_meet_language_codes_in_the_browser(app):
    """The APy-style pair list (eng, cat_valencia_uni) and the v2 list (en, ca-valencia-uni) name
    the same languages differently; the app's catalog must see them as the same."""
    keys = app.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/catalog.js').then(({codeKey}) => done([
          ['eng', 'en'], ['spa', 'es'], ['cat_valencia_uni', 'ca-valencia-uni'], ['eng_US', 'en-US'],
          ['por_BR', 'pt-BR'], ['cat_iec2017', 'ca-iec2017'], ['fra', 'fr'], ['glg', 'gl'], ['eng', 'es'],
        ].map(([a, b]) => codeKey(a) === codeKey(b))));""")
    assert keys == [True] * 8 + [False]
    # Every pair the service lists from English appears in the list of targets.
    app.find_element(By.CSS_SELECTOR, '#source-select option[value="en"]').click()
    offered = {li.get_attribute("data-code") for li in app.find_elements(By.CSS_SELECTOR, "#target-list li[data-code]")}
    assert {"es", "ca", "ca-valencia", "fr", "gl", "pt"} <= offered


def test_the_binary_carries_the_app_wherever_it_runs(glossa_bin, tmp_path):
    """The files are compiled into the binary: a copy in another folder, run from there with no
    build folder beside it, serves exactly the files of Sources/WebApp/WebRoot."""
    copy = tmp_path / "glossa"
    shutil.copy2(glossa_bin, copy)
    root = pathlib.Path(__file__).resolve().parent.parent / "Sources" / "WebApp" / "WebRoot"
    with glossa_serve(str(copy), cwd=str(tmp_path)) as url:
        for path, file in [("/", "index.html"), ("/overlay-demo", "overlay-demo.html"), ("/app.js", "app.js"),
                           ("/overlay.js", "overlay.js"), ("/js/editor.js", "js/editor.js")]:
            with urllib.request.urlopen(url + path, timeout=10) as response:
                assert response.read() == (root / file).read_bytes(), path


def test_document_drop_translates_a_docx_and_keeps_it(app, tmp_path):
    """Pick a docx in the Document view, translate it, download it: the same document, translated."""
    import documents_support as ds

    original = ds.make_docx()
    path = tmp_path / "report.docx"
    path.write_bytes(original)
    app.find_element(By.ID, "tab-documents").click()
    wait_for(app, lambda d: d.find_element(By.ID, "view-documents").is_displayed(), message="the document view did not open")
    app.find_element(By.ID, "doc-file").send_keys(str(path))
    wait_for(app, lambda d: "report.docx" in d.find_element(By.ID, "doc-name").text, message="the file was not taken")
    from selenium.webdriver.support.ui import Select
    Select(app.find_element(By.ID, "doc-source")).select_by_value("en")
    Select(app.find_element(By.ID, "doc-target")).select_by_value("es")
    screenshot(app, "documents-chosen")
    app.find_element(By.ID, "doc-run").click()
    wait_for(app, lambda d: d.find_elements(By.ID, "doc-download"), timeout=120, message="no download link appeared")
    link = app.find_element(By.ID, "doc-download")
    assert link.get_attribute("download") == "report.es.docx"
    screenshot(app, "documents-done")
    with urllib.request.urlopen(link.get_attribute("href"), timeout=60) as r:
        ds.assert_translated_document("docx", original, r.read())


def test_document_drop_names_what_it_cannot_translate(app, tmp_path):
    path = tmp_path / "scan.pdf"
    path.write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    app.find_element(By.ID, "tab-documents").click()
    app.find_element(By.ID, "doc-file").send_keys(str(path))
    wait_for(app, lambda d: "docx" in d.find_element(By.ID, "doc-status").text, message="the unsupported file was not flagged")
    renamed = tmp_path / "scan.txt"
    renamed.write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    app.find_element(By.ID, "doc-file").send_keys(str(renamed))
    app.find_element(By.ID, "doc-run").click()
    wait_for(app, lambda d: "application/pdf" in d.find_element(By.ID, "doc-status").text, timeout=60,
             message="the service's message about the PDF was not shown")
    screenshot(app, "documents-refused")
    # The browser logs the refused upload itself; that 400 is the point of this test, and the
    # only console entry allowed (console_errors reads and clears the log).
    errors = console_errors(app)
    assert errors and all("/translate_file" in e and "400" in e for e in errors), errors


# --- Keys, detection that tells the truth, stale results, documents with progress and Stop ----

GERMAN = "Guten Morgen, wie geht es Ihnen heute? Ich hoffe, dass alles gut ist und die Sonne scheint."


@pytest.fixture(scope="module")
def keyed_server(glossa_bin):
    """A server started with --require-keys, and two keys from its store: "app" without limits,
    "small" with 30 characters a month."""
    data = new_data_folder()
    try:
        keys = {"app": create_key(glossa_bin, data, "app"),
                "small": create_key(glossa_bin, data, "small", "--chars-per-month", "30")}
    except BaseException:
        shutil.rmtree(data, ignore_errors=True)
        raise
    with glossa_serve(glossa_bin, args=("--require-keys",), data=data) as url:
        yield url, keys


def open_without_key(d, url):
    """The app at `url` in a browser that holds no key for it (keys are kept per origin)."""
    # Cleared from outside any page: an app still running in the tab would keep calling with the key.
    d.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": url, "storageTypes": "local_storage"})
    d.get(url + "/")


def catalog_error(d, words):
    """Waits for the language list's error to say `words`; returns the status element."""
    return wait_for(d, lambda d: (lambda s: s if words in s.text else None)(by_id(d, "catalog-status")),
                    timeout=30, message=f"the app did not say: {words}")


def type_key(d, key):
    """Types `key` into the key field (opening it when closed) and presses Enter, as a user would."""
    if not by_id(d, "api-key").is_displayed():
        by_id(d, "key-summary").click()
    field = by_id(d, "api-key")
    field.clear()
    field.send_keys(key, Keys.ENTER)


def into_view(d, element):
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)


def is_ready(d):
    return d.execute_script("return document.body.dataset.ready === 'true'")


def refused_loads_only(d, *paths):
    """The console holds only the browser's own lines for refused loads of `paths` (the refusals
    each test provokes); console_errors reads and clears the log."""
    errors = console_errors(d)
    assert all("Failed to load resource" in e and any(p in e for p in paths) for e in errors), "\n".join(errors)


def test_a_server_that_requires_keys_asks_for_one_and_loads_once_given(browser, keyed_server):
    url, keys = keyed_server
    d = browser
    open_without_key(d, url)
    status = catalog_error(d, "needs an API key")
    assert "error" in status.get_attribute("class") and not is_ready(d)
    assert d.find_elements(By.CSS_SELECTOR, "#source-select option") == []
    # The app opened the key field itself; the message's link goes there too.
    assert by_id(d, "api-key").is_displayed()
    screenshot(d, "keys-1-needed")
    by_id(d, "source-text").click()
    status.find_element(By.CSS_SELECTOR, "a.key-link").click()
    wait_for(d, lambda d: d.execute_script("return document.activeElement.id") == "api-key",
             message="the link did not focus the key field")
    type_key(d, keys["app"])
    # The languages load with the key, without a page reload.
    wait_for(d, is_ready, timeout=30, message="the languages did not load after the key was entered")
    assert text_of(d, "catalog-status") == ""
    assert d.find_elements(By.CSS_SELECTOR, '#source-select option[value="en"]')
    assert keys["app"][:11] in text_of(d, "key-summary") and keys["app"] not in d.page_source
    set_value(d, "source-text", "Good morning")
    pick_target(d, "Spa", "es")
    by_id(d, "translate").click()
    wait_for(d, lambda d: "Buenos días" in text_of(d, "translation"), message="no translation with the key")
    screenshot(d, "keys-2-translated")
    # The key is kept in this browser: a reload needs no typing; Forget removes it.
    d.refresh()
    wait_for(d, is_ready, timeout=30, message="the stored key was not used after a reload")
    by_id(d, "key-summary").click()
    by_id(d, "key-forget").click()
    assert d.execute_script("return localStorage.getItem('glossa.apiKey')") is None
    d.refresh()
    catalog_error(d, "needs an API key")
    # (Forgetting the key made the open page's glossary list ask again, and be refused too.)
    refused_loads_only(d, "/language/translate/v2/languages", "/v2/glossaries")


def test_a_wrong_key_is_named_as_refused(browser, keyed_server):
    url, keys = keyed_server
    d = browser
    open_without_key(d, url)
    catalog_error(d, "needs an API key")
    type_key(d, "glossa_" + "x" * 43)
    status = catalog_error(d, "refused this API key")
    assert status.find_element(By.CSS_SELECTOR, "a.key-link").text == "Change the key"
    assert "keyInvalid" in status.text  # the service's own reason stays in the detail
    screenshot(d, "keys-3-refused")
    type_key(d, keys["app"])
    wait_for(d, is_ready, timeout=30, message="the right key did not load the languages")
    refused_loads_only(d, "/language/translate/v2/languages")


def test_a_key_over_its_quota_says_so(browser, keyed_server):
    url, keys = keyed_server
    d = browser
    open_without_key(d, url)
    catalog_error(d, "needs an API key")
    type_key(d, keys["small"])  # the language list costs no characters: it loads
    wait_for(d, is_ready, timeout=30, message="the languages did not load with the small key")
    set_value(d, "source-text", "The house is red and the garden is green.")  # 41 characters > 30
    pick_target(d, "Spa", "es")
    by_id(d, "translate").click()
    status = wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, "#editor-status.error"), message="no error shown")
    assert "over its character quota" in status.text
    assert status.find_element(By.CSS_SELECTOR, "a.key-link").text == "Use another key"
    assert text_of(d, "translation") == ""
    into_view(d, status)
    screenshot(d, "keys-4-quota")
    refused_loads_only(d, "/language/translate/v2")


def translate_small_note(d, tmp_path, message: str):
    """In the Documents tab: a one-line English text file translated into Spanish; its download link."""
    by_id(d, "tab-documents").click()
    note = tmp_path / "note.txt"
    note.write_text("The house is red.\n")
    by_id(d, "doc-file").send_keys(str(note))
    Select(by_id(d, "doc-source")).select_by_value("en")
    Select(by_id(d, "doc-target")).select_by_value("es")
    by_id(d, "doc-run").click()
    return wait_for(d, lambda d: d.find_elements(By.ID, "doc-download"), timeout=60, message=message)[0]


def test_a_document_translates_with_a_key(browser, keyed_server, tmp_path):
    """LibreTranslate's /translate_file reads the key from the form (api_key); the download link
    works for anyone holding it (its random name guards it, as in LibreTranslate)."""
    url, keys = keyed_server
    d = browser
    open_without_key(d, url)
    catalog_error(d, "needs an API key")
    type_key(d, keys["app"])
    wait_for(d, is_ready, timeout=30, message="the languages did not load with the key")
    link = translate_small_note(d, tmp_path, "no download link")
    with urllib.request.urlopen(link.get_attribute("href"), timeout=30) as answer:
        assert "casa" in answer.read().decode().lower()
    refused_loads_only(d, "/language/translate/v2/languages")


def skip_if_german_is_installed(d):
    if d.find_elements(By.CSS_SELECTOR, '#source-select option[value="de"]'):
        pytest.skip("this machine has a pair from German installed")


def test_a_detected_language_without_a_pair_is_named_as_not_installed(app):
    d = app
    skip_if_german_is_installed(d)
    set_value(d, "source-text", GERMAN)
    by_id(d, "detect").click()
    status = wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, "#editor-status.info"), message="no notice shown")
    assert ("German — recognised, but not installed here; an operator can add it with glossa models install de"
            in status.text), status.text
    assert status.find_element(By.TAG_NAME, "code").text == "glossa models install de"
    assert "From" not in status.text and text_of(d, "detected") == ""
    into_view(d, status)
    screenshot(d, "detect-1-not-installed")


def test_a_failed_request_clears_the_previous_translation(app):
    d = app
    skip_if_german_is_installed(d)
    set_value(d, "source-text", "Good morning")
    pick_target(d, "Spa", "es")
    by_id(d, "translate").click()
    wait_for(d, lambda d: "Buenos días" in text_of(d, "translation"), message="the first text was not translated")
    # German with the source left to the server: refused (no pair from German), and the notice
    # says why; the Spanish of the previous text must not stay under it.
    set_value(d, "source-text", GERMAN)
    by_id(d, "translate").click()
    status = wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, "#editor-status.info"), message="no notice shown")
    assert "German — recognised, but not installed here" in status.text
    assert text_of(d, "translation") == "" and text_of(d, "translation-meta") == ""
    assert by_id(d, "copy").get_attribute("disabled") is not None and not by_id(d, "again").is_displayed()
    into_view(d, status)
    screenshot(d, "stale-1-cleared")
    refused_loads_only(d, "/language/translate/v2")


def test_a_document_shows_its_progress_and_stop_aborts_it(app, tmp_path):
    d = app
    translate_small_note(d, tmp_path, "the small document was not translated")
    # A document long enough to be stopped (about 10 s of translation here), with varied lines
    # so that no cache answers it at once.
    big = tmp_path / "long.txt"
    big.write_text("".join(f"The house number {i} is near the {('red', 'green', 'old')[i % 3]} garden.\n" for i in range(8000)))
    by_id(d, "doc-file").send_keys(str(big))
    d.execute_script("""
        window.progressTexts = [];
        new MutationObserver(() => window.progressTexts.push(document.getElementById('doc-progress').textContent))
          .observe(document.getElementById('doc-progress'), {childList: true, characterData: true, subtree: true});""")
    by_id(d, "doc-run").click()
    wait_for(d, lambda d: "translating on the server" in text_of(d, "doc-progress"), timeout=30,
             message="the upload did not finish")
    assert any(t.startswith("Sending: ") and t.endswith("%") for t in d.execute_script("return window.progressTexts"))
    assert by_id(d, "doc-stop").is_displayed() and not d.find_elements(By.ID, "doc-download")
    screenshot(d, "documents-progress")
    by_id(d, "doc-stop").click()
    wait_for(d, lambda d: "Stopped: long.txt was not translated." in text_of(d, "doc-status"), timeout=10,
             message="Stop did not end the request")
    assert not by_id(d, "doc-stop").is_displayed() and by_id(d, "doc-run").is_enabled()
    assert not by_id(d, "doc-bar").is_displayed() and not d.find_elements(By.ID, "doc-download")
    screenshot(d, "documents-stopped")
