"""Documents through the CLI (`glossa translate --file IN --output OUT`) and through the HTTP
service (APy's /translateDoc, DeepL's /v2/document with DeepL's own client, LibreTranslate's
/translate_file + /download_file), each result opened with the format's own library and compared
with the input (tests/documents_support.py)."""
import io
import time
import urllib.request

import deepl
import pytest

import documents_support as ds
from apy_peer import request
from glossa_server import server  # noqa: F401  (the module-scoped live `glossa serve` fixture)


@pytest.mark.parametrize("fmt", sorted(ds.MAKERS))
def test_cli_translates_each_format_keeping_its_structure(run, tmp_path, fmt):
    src = tmp_path / f"in.{fmt}"
    dst = tmp_path / f"out.{fmt}"
    original = ds.MAKERS[fmt]()
    src.write_bytes(original)
    p = run("translate", "--from", "en", "--to", "es", "--file", str(src), "--output", str(dst))
    assert p.returncode == 0, p.stderr.decode()
    ds.assert_translated_document(fmt, original, dst.read_bytes())


def test_cli_detects_the_document_language_and_refuses_what_it_cannot_read(run, tmp_path):
    src, dst = tmp_path / "in.docx", tmp_path / "out.docx"
    src.write_bytes(ds.make_docx())
    p = run("translate", "--to", "es", "--file", str(src), "--output", str(dst))
    assert p.returncode == 0, p.stderr.decode()
    assert any(ds.GOOD_MORNING[1] in t for t in ds.texts("docx", dst.read_bytes()))
    pdf = tmp_path / "x.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%\xe2\xe3\n1 0 obj\n")
    p = run("translate", "-f", "en", "-t", "es", "--file", str(pdf), "--output", str(tmp_path / "y.pdf"))
    assert p.returncode == 4 and "application/pdf" in p.stderr.decode()
    assert not (tmp_path / "y.pdf").exists()
    p = run("translate", "-f", "en", "-t", "es", "--file", str(tmp_path / "missing.docx"), "--output", str(dst))
    assert p.returncode == 4 and "missing.docx" in p.stderr.decode()
    p = run("translate", "-f", "en", "-t", "es", "--file", str(src))
    assert p.returncode == 2 and "--output" in p.stderr.decode()


# The same documents through the HTTP service.


@pytest.mark.parametrize("fmt", sorted(ds.MAKERS))
def test_apy_translate_doc_keeps_each_format(server, fmt):  # noqa: F811
    original = ds.MAKERS[fmt]()
    status, body, ctype = request(server.url, "/translateDoc", data={"langpair": "eng|spa", "markUnknown": "no"},
                                  files={"file": (f"in.{fmt}", original)})
    assert status == 200, body
    ds.assert_translated_document(fmt, original, body if isinstance(body, bytes) else body.encode())


def test_deepl_client_translates_a_document(server, tmp_path):  # noqa: F811
    src, dst = tmp_path / "report.docx", tmp_path / "informe.docx"
    original = ds.make_docx(paragraphs=30)
    src.write_bytes(original)
    translator = deepl.Translator("any-key", server_url=server.url)
    status = translator.translate_document_from_filepath(str(src), str(dst), target_lang="ES", source_lang="EN")
    assert status.done and status.billed_characters > 0
    ds.assert_translated_document("docx", original, dst.read_bytes())
    with pytest.raises(deepl.DeepLException):
        translator.translate_document(io.BytesIO(b"%PDF-1.4\n%\xe2\xe3\n"), io.BytesIO(), target_lang="ES", filename="a.pdf")
    # DeepL tells the format by the extension: readable text under a name of no known type is
    # refused for that, and before the target that has no installed pair here (deepl-python's
    # own test_invalid_document).
    for target in ("ES", "JA"):
        with pytest.raises(deepl.DeepLException, match="Invalid file data"):
            translator.translate_document(b"proton beam", io.BytesIO(), target_lang=target, filename="document.invalid")


def test_libretranslate_translate_file_then_download_file(server):  # noqa: F811
    original = ds.make_odt()
    status, body, _ = request(server.url, "/translate_file", data={"source": "en", "target": "es"}, files={"file": ("notes.odt", original)})
    assert status == 200 and body["translatedFileUrl"].endswith(".notes.odt"), body
    with urllib.request.urlopen(body["translatedFileUrl"], timeout=60) as r:
        assert r.headers["Content-Disposition"] == 'attachment; filename="notes.odt"'
        ds.assert_translated_document("odt", original, r.read())
    status, body, _ = request(server.url, "/translate_file", data={"source": "en", "target": "es"}, files={"file": ("x.pdf", b"%PDF")})
    assert status == 400 and body == {"error": "Invalid request: file format not supported"}


def test_oversized_and_unsupported_documents_are_refused_at_once(server):  # noqa: F811
    big = b"a" * (33 * 1000 * 1000)
    t0 = time.monotonic()
    status, body, _ = request(server.url, "/translateDoc", data={"langpair": "eng|spa"}, files={"file": ("big.txt", big)})
    assert status == 413 and body["explanation"] == "That file is too large"
    assert time.monotonic() - t0 < 30
    status, body, _ = request(server.url, "/translateDoc", data={"langpair": "eng|spa"}, files={"file": ("a.zip", ds.tiny_png())})
    assert status == 400 and body["explanation"] == "Invalid file type image/png"
    # The server still answers at once.
    status, body, _ = request(server.url, "/translate?langpair=eng|spa&q=Good+morning")
    assert status == 200 and body["responseData"]["translatedText"] == "Buenos días"
