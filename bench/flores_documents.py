"""Benchmark inputs made from FLORES-200 dev English: the sentences, and a docx of them (shared by
bench_server.py and bench_instructions.py, so both measure the same document)."""
import io
import pathlib

FLORES = pathlib.Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "flores200-dev" / "eng_Latn.dev"
SENTENCES = [line.strip() for line in FLORES.read_text().splitlines() if line.strip()]


def docx_bytes(paragraphs: int = 200) -> bytes:
    """A docx of `paragraphs` FLORES sentences, a third of them with a bold run."""
    import docx
    d = docx.Document()
    for i in range(paragraphs):
        p = d.add_paragraph(SENTENCES[i] + " ")
        if i % 3 == 0:
            p.add_run(SENTENCES[i + 1].split(" ")[0]).bold = True
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()
