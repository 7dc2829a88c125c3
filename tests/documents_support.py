"""Documents for the translation tests, made with the real libraries (python-docx, python-pptx,
openpyxl, odfpy), and the checks that a translated document kept its structure: every test that
sends a document (CLI, APy /translateDoc, LibreTranslate /translate_file, DeepL /v2/document,
the web app's file drop) uses these."""
import io
import re
import struct
import zipfile
import zlib

import docx
import openpyxl
import pptx
from odf import opendocument, table as odftable, teletype, text as odftext
from striprtf.striprtf import rtf_to_text

# Sentences whose eng→spa translation the tests know (Apertium eng-spa, Debian 0.8.1).
GOOD_MORNING = ("Good morning", "Buenos días")
SENTENCES = ["The weather is nice today.", "I like big cats and small dogs.", "The red house is very old."]


def tiny_png() -> bytes:
    """A valid 1x1 PNG (an image part that must come back byte for byte)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def make_docx(paragraphs: int = 0) -> bytes:
    d = docx.Document()
    d.add_heading(GOOD_MORNING[0], 0)
    p = d.add_paragraph("I like ")
    p.add_run("big cats").bold = True
    p.add_run(" and ")
    p.add_run("small dogs").italic = True
    p.add_run(".")
    d.add_paragraph(SENTENCES[0], style="List Bullet")
    t = d.add_table(rows=2, cols=2)
    t.cell(0, 0).text = SENTENCES[2]
    t.cell(0, 1).text = "1234"
    t.cell(1, 0).text = "Thank you"
    d.add_picture(io.BytesIO(tiny_png()))
    d.sections[0].header.paragraphs[0].text = "Annual report"
    for i in range(paragraphs):
        d.add_paragraph(SENTENCES[i % len(SENTENCES)] + f" Paragraph {i + 1}.")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def make_pptx() -> bytes:
    prs = pptx.Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = GOOD_MORNING[0]
    body = slide.placeholders[1].text_frame
    body.text = SENTENCES[0]
    para = body.add_paragraph()
    run = para.add_run()
    run.text = SENTENCES[1]
    run.font.bold = True
    slide.notes_slide.notes_text_frame.text = "Thank you"
    slide2 = prs.slides.add_slide(prs.slide_layouts[5])
    slide2.shapes.title.text = SENTENCES[2]
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


def make_xlsx() -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws["A1"] = GOOD_MORNING[0]
    ws["A1"].font = openpyxl.styles.Font(bold=True)
    ws["B1"] = 42
    ws["A2"] = SENTENCES[0]
    ws["B2"] = "=B1*2"
    ws.merge_cells("C1:D1")
    ws["C1"] = "Thank you"
    ws2 = wb.create_sheet("Other")
    ws2["A1"] = SENTENCES[2]
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def make_odt() -> bytes:
    doc = opendocument.OpenDocumentText()
    doc.text.addElement(odftext.H(outlinelevel=1, text=GOOD_MORNING[0]))
    p = odftext.P(text="I like ")
    p.addElement(odftext.Span(text="big cats"))
    p.addText(" and small dogs.")
    doc.text.addElement(p)
    doc.text.addElement(odftext.P(text=SENTENCES[0]))
    tbl = odftable.Table(name="T")
    tbl.addElement(odftable.TableColumn(numbercolumnsrepeated=2))
    row = odftable.TableRow()
    for value in [SENTENCES[2], "1234"]:
        cell = odftable.TableCell()
        cell.addElement(odftext.P(text=value))
        row.addElement(cell)
    tbl.addElement(row)
    doc.text.addElement(tbl)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def make_rtf() -> bytes:
    return ("{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\froman Times New Roman;}}{\\colortbl;\\red255\\green0\\blue0;}\n"
            "{\\info{\\title Report}}\\pard\\f0\\fs24 " + GOOD_MORNING[0] + "\\par\n"
            "I like {\\b big cats} and {\\i small dogs}.\\par\n"
            + SENTENCES[0] + "\\par\n1234\\par}").encode()


def make_txt() -> bytes:
    return (GOOD_MORNING[0] + "\n\n" + SENTENCES[0] + "\n" + SENTENCES[1] + "\n\n\n1234\n").encode()


def make_html() -> bytes:
    return ("<!DOCTYPE html><html><head><title>" + GOOD_MORNING[0] + "</title></head><body>"
            "<p>I like <b>big cats</b>.</p><p>" + SENTENCES[0] + "</p></body></html>").encode()


MAKERS = {"docx": make_docx, "pptx": make_pptx, "xlsx": make_xlsx, "odt": make_odt,
          "rtf": make_rtf, "txt": make_txt, "html": make_html}

TEXT_PARTS = re.compile(r"^(word/.*\.xml|ppt/(slides|notesSlides|charts)/.*\.xml|ppt/diagrams/data.*\.xml|"
                        r"xl/sharedStrings\.xml|xl/worksheets/sheet.*\.xml|xl/comments.*\.xml|xl/(charts|drawings)/.*\.xml|"
                        r"content\.xml|styles\.xml)$")


def skeleton(xml: bytes) -> bytes:
    """The XML with the character data between tags removed: what translation must not touch."""
    return re.sub(rb">[^<]*<", b"><", xml)


def assert_zip_kept(before: bytes, after: bytes, fmt: str):
    """Same entries in the same order; parts without text byte-identical; text parts identical
    outside their character data."""
    zin, zout = zipfile.ZipFile(io.BytesIO(before)), zipfile.ZipFile(io.BytesIO(after))
    assert zout.namelist() == zin.namelist()
    if fmt.startswith("od"):
        assert zout.infolist()[0].filename == "mimetype" and zout.infolist()[0].compress_type == zipfile.ZIP_STORED
    changed = 0
    for name in zin.namelist():
        a, b = zin.read(name), zout.read(name)
        if TEXT_PARTS.match(name):
            assert skeleton(a) == skeleton(b), f"{name}: markup changed"
            changed += a != b
        else:
            assert a == b, f"{name} changed"
    assert changed >= 1, "no text part was translated"


def texts(fmt: str, data: bytes) -> list[str]:
    """The document's text, paragraph by paragraph, read with the format's own library."""
    if fmt == "docx":
        d = docx.Document(io.BytesIO(data))
        cells = [c.text for t in d.tables for r in t.rows for c in r.cells]
        return [p.text for p in d.paragraphs] + cells + [p.text for p in d.sections[0].header.paragraphs]
    if fmt == "pptx":
        prs = pptx.Presentation(io.BytesIO(data))
        out = []
        for slide in prs.slides:
            for shape in slide.shapes:
                if shape.has_text_frame:
                    out += [p.text for p in shape.text_frame.paragraphs]
            out.append(slide.notes_slide.notes_text_frame.text)
        return out
    if fmt == "xlsx":
        wb = openpyxl.load_workbook(io.BytesIO(data))
        return [str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None]
    if fmt == "odt":
        doc = opendocument.load(io.BytesIO(data))
        return [teletype.extractText(e) for e in doc.getElementsByType(odftext.H) + doc.getElementsByType(odftext.P)]
    if fmt == "rtf":
        return [line for line in rtf_to_text(data.decode("ascii")).split("\n") if line.strip()]
    return [line for line in data.decode("utf-8").split("\n") if line.strip()]


def structure(fmt: str, data: bytes):
    """What must be equal before and after: the counts and formatting the library sees."""
    if fmt == "docx":
        d = docx.Document(io.BytesIO(data))
        return ([(p.style.name, [(bool(r.bold), bool(r.italic)) for r in p.runs]) for p in d.paragraphs],
                [(len(t.rows), len(t.columns)) for t in d.tables], len(d.inline_shapes))
    if fmt == "pptx":
        prs = pptx.Presentation(io.BytesIO(data))
        return [[(s.shape_type, [[bool(r.font.bold) for r in p.runs] for p in s.text_frame.paragraphs] if s.has_text_frame else None)
                 for s in slide.shapes] for slide in prs.slides]
    if fmt == "xlsx":
        wb = openpyxl.load_workbook(io.BytesIO(data))
        return [(ws.title, [str(r) for r in ws.merged_cells.ranges],
                 [(c.coordinate, c.data_type, bool(c.font.bold), c.value if c.data_type != "s" else None)
                  for row in ws.iter_rows() for c in row]) for ws in wb.worksheets]
    if fmt == "odt":
        doc = opendocument.load(io.BytesIO(data))
        return (len(doc.getElementsByType(odftext.H)), len(doc.getElementsByType(odftext.P)),
                len(doc.getElementsByType(odftext.Span)), len(doc.getElementsByType(odftable.TableCell)))
    return len(texts(fmt, data))


def assert_translated_document(fmt: str, before: bytes, after: bytes):
    """The translated document opens with its library, has the same structure, is translated
    (Good morning → Buenos días), and keeps every byte outside its text."""
    assert structure(fmt, after) == structure(fmt, before)
    out = texts(fmt, after)
    assert any(GOOD_MORNING[1] in t for t in out), out
    assert not any(GOOD_MORNING[0] in t for t in out), out
    if fmt in ("docx", "pptx", "xlsx", "odt"):
        assert_zip_kept(before, after, fmt)
    if fmt == "txt":
        assert after.count(b"\n") == before.count(b"\n") and after.endswith(b"\n\n\n1234\n")
