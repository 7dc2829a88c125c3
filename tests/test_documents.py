"""Documents through the CLI (`glossa translate --file IN --output OUT`), opened afterwards with
the format's own library and compared with the input (tests/documents_support.py)."""
import pytest

import documents_support as ds


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
