"""`make quality`: how well, and how faithfully, every installed Apertium direction translates
through Glossa, side by side with the raw `apertium` command, on FLORES-200 dev.

For each mode (two codes, `eng-spa`) whose source has a FLORES file:
- chrF and BLEU (sacrebleu, default settings) of Glossa (`glossa translate -f SRC -t TGT`, the
  file on stdin) and of `apertium -u MODE` on the same file, against the target's FLORES file;
- lines that differ from `apertium -u MODE` run on each line alone (a fresh process per line,
  so no state can carry over), for Glossa's first pass over the set, and again after its warm
  pipelines have translated the whole set once (the set is fed twice to one `glossa translate`).
`-u` because Glossa leaves Apertium's marks (`*`, `#`, `@`) out unless asked. The per-line runs
start every stage once per line (about half a second), so they cover the first `--lines` lines.

Usage: quality.py --glossa BIN --flores DIR --out docs/quality.md [--lines 100] [--pairs a-b,c-d]
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys

import sacrebleu

# Apertium's ISO 639-3 codes → FLORES-200 files; a variant (`cat_valencia`) is scored against its
# language's file. Serbo-Croatian's FLORES files are Croatian and Bosnian (Latin); Serbian is in
# Cyrillic only, while Apertium writes Serbian in Latin letters, so hbs_SR has no reference.
FLORES = {
    "afr": "afr_Latn", "ast": "ast_Latn", "bel": "bel_Cyrl", "bul": "bul_Cyrl", "cat": "cat_Latn",
    "dan": "dan_Latn", "eng": "eng_Latn", "epo": "epo_Latn", "eus": "eus_Latn", "fra": "fra_Latn",
    "glg": "glg_Latn", "hbs": "hrv_Latn", "hbs_HR": "hrv_Latn", "hbs_BS": "bos_Latn", "hin": "hin_Deva",
    "ind": "ind_Latn", "isl": "isl_Latn", "ita": "ita_Latn", "mkd": "mkd_Cyrl", "nld": "nld_Latn",
    "nno": "nno_Latn", "nob": "nob_Latn", "oci": "oci_Latn", "pol": "pol_Latn", "por": "por_Latn",
    "ron": "ron_Latn", "rus": "rus_Cyrl", "slv": "slv_Latn", "spa": "spa_Latn", "srd": "srd_Latn",
    "swe": "swe_Latn", "szl": "szl_Latn", "ukr": "ukr_Cyrl", "urd": "urd_Arab", "zlm": "zsm_Latn",
}
TWO_LETTER = {"en": "eng", "es": "spa", "ca": "cat", "fr": "fra", "pt": "por", "gl": "glg", "eo": "epo",
              "eu": "eus", "oc": "oci", "ro": "ron", "it": "ita", "br": "bre"}
MODE_DIRS = ["/usr/share/apertium/modes"] + [d for d in os.environ.get("GLOSSA_APERTIUM_MODES", "").split(":") if d]


def flores_file(code):
    """The FLORES file for an Apertium code, or None: exact code first, then its language."""
    language, _, rest = code.partition("_")
    language = TWO_LETTER.get(language, language)
    if code == "hbs_SR" or (language == "hbs" and rest == "SR"):
        return None
    return FLORES.get(f"{language}_{rest}" if rest else language) or FLORES.get(language)


def modes():
    found = {}
    for directory in MODE_DIRS:
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            stem = name[:-5]
            if name.endswith(".mode") and stem.count("-") == 1 and stem not in found:
                found[stem] = os.path.join(directory, name)
    return found


def run(command, text, timeout=3600):
    return subprocess.run(command, input=text.encode(), capture_output=True, timeout=timeout,
                          env={**os.environ, "LC_ALL": "C.UTF-8"})


def lines_of(output, count):
    out = output.decode("utf-8", errors="replace").split("\n")
    return (out + [""] * count)[:count]


def apertium(mode, text, count):
    return lines_of(run(["apertium", "-u", mode], text + "\n").stdout, count)


def evaluate(mode, glossa, source_lines, reference, sample):
    source, target = mode.split("-")
    count = len(source_lines)
    probe = run([glossa, "translate", "-f", source, "-t", target, "--json", source_lines[0]], "", timeout=600)
    row = {"mode": mode, "reference": reference[0]}
    if probe.returncode != 0:
        row["note"] = probe.stderr.decode(errors="replace").strip().splitlines()[-1:][0] if probe.stderr else "refused"
        return row
    route = json.loads(probe.stdout.decode().splitlines()[0]).get("route") or []
    if len(route) != 2:
        row["note"] = "unavailable here; Glossa routes " + " → ".join(route)
        return row
    text = "\n".join(source_lines)
    # The set twice in one process: the second half is translated by pipelines that have
    # already translated the whole set once.
    twice = run([glossa, "translate", "-f", source, "-t", target], text + "\n" + text + "\n")
    if twice.returncode != 0:
        row["note"] = "glossa failed: " + twice.stderr.decode(errors="replace").strip()[-200:]
        return row
    both = lines_of(twice.stdout, 2 * count)
    first, second = both[:count], both[count:]
    raw = apertium(mode, text, count)
    alone = [apertium(mode, line, 1)[0] for line in source_lines[:sample]]
    refs = [reference[1]]
    row.update({
        "chrf_glossa": sacrebleu.corpus_chrf(first, refs).score,
        "chrf_raw": sacrebleu.corpus_chrf(raw, refs).score,
        "bleu_glossa": sacrebleu.corpus_bleu(first, refs).score,
        "bleu_raw": sacrebleu.corpus_bleu(raw, refs).score,
        "differ_first": sum(a != b for a, b in zip(first[:sample], alone)),
        "differ_second": sum(a != b for a, b in zip(second[:sample], alone)),
        "differ_raw_file": sum(a != b for a, b in zip(raw[:sample], alone)),
        "sample": len(alone),
    })
    return row


def unavailable_reasons(glossa):
    listing = run([glossa, "pairs", "--json"], "", timeout=3600)
    rows = json.loads(listing.stdout or b"[]")
    return {f'{r["source"]}→{r["target"]}': r["reason"] for r in rows if r["kind"] == "unavailable"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--glossa", required=True)
    parser.add_argument("--flores", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--lines", type=int, default=100, help="lines compared with per-line apertium")
    parser.add_argument("--pairs", default="", help="comma-separated modes (default: every installed one)")
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    args = parser.parse_args()
    flores = pathlib.Path(args.flores)
    if not (flores / "eng_Latn.dev").is_file():
        sys.exit(f"quality: FLORES-200 dev not found in {flores} (give FLORES_DIR=...)")
    wanted = [p for p in args.pairs.split(",") if p]
    installed = modes()
    todo, skipped = [], []
    for mode in (wanted or sorted(installed)):
        source, target = mode.split("-")
        src, ref = flores_file(source), flores_file(target)
        if mode not in installed:
            skipped.append((mode, "not installed"))
        elif not src or not ref:
            skipped.append((mode, "no FLORES-200 file for " + (source if not src else target)))
        else:
            source_lines = (flores / f"{src}.dev").read_text().splitlines()
            reference = (ref, (flores / f"{ref}.dev").read_text().splitlines())
            todo.append((mode, source_lines, reference))
    print(f"quality: {len(todo)} directions ({len(skipped)} without a reference), {args.jobs} at a time", file=sys.stderr)
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(evaluate, m, args.glossa, s, r, args.lines): m for m, s, r in todo}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            rows.append(future.result())
            print(f"quality: {done}/{len(todo)} {futures[future]}", file=sys.stderr)
    write(args, sorted(rows, key=lambda r: r["mode"]), skipped)


def write(args, rows, skipped):
    scored = [r for r in rows if "chrf_glossa" in r]
    lines = [
        "# Translation quality and faithfulness on FLORES-200 dev",
        "",
        ("The directions asked for (" + ", ".join(f"`{m}`" for m in args.pairs.split(",") if m) + "; `QUALITY_PAIRS`), through Glossa"
         if args.pairs else "Every installed Apertium direction, through Glossa") + " and through the raw `apertium` command, on",
        f"the {997} sentences of FLORES-200 dev (`../shared/data/flores200-dev`). Regenerate with `make quality`",
        f"(`tests/tools/quality/quality.py`); this run: {datetime.date.today().isoformat()}, {platform.node() or 'this machine'},",
        f"{os.cpu_count()} cores, sacrebleu {sacrebleu.__version__} (chrF and BLEU with its defaults).",
        "",
        "- **chrF / BLEU**: Glossa (`glossa translate -f SRC -t TGT`, the file on stdin) and `apertium -u MODE` on the",
        "  whole file, against the target language's FLORES file (a variant is scored against its language's).",
        f"- **≠ alone**: of the first {args.lines} lines, how many differ from `apertium -u MODE` run on that line alone",
        "  (a fresh process per line, so nothing carries over): Glossa's first pass, Glossa after its warm pipelines",
        "  have translated the whole set once, and the raw command over the whole file.",
        "",
        "| direction | reference | chrF Glossa | chrF apertium | BLEU Glossa | BLEU apertium | ≠ alone: Glossa | after a pass | raw file |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        if "chrf_glossa" in r:
            lines.append(f'| {r["mode"]} | {r["reference"]} | {r["chrf_glossa"]:.2f} | {r["chrf_raw"]:.2f} | {r["bleu_glossa"]:.2f} '
                         f'| {r["bleu_raw"]:.2f} | {r["differ_first"]} | {r["differ_second"]} | {r["differ_raw_file"]} |')
    notes = [r for r in rows if "note" in r]
    if notes or skipped:
        lines += ["", "Not scored:", ""]
        reasons = unavailable_reasons(args.glossa) if notes else {}
        for r in notes:
            lines.append(f'- {r["mode"]}: {r["note"]}')
        for mode, why in skipped:
            lines.append(f"- {mode}: {why}")
        if reasons:
            lines += ["", "Installed pairs that do not work here (`glossa pairs`):", ""]
            lines += [f"- {pair}: {reason}" for pair, reason in sorted(reasons.items())]
    if scored:
        same = sum(abs(r["chrf_glossa"] - r["chrf_raw"]) <= 0.06 for r in scored)
        lines += ["", f"Glossa's chrF is within 0.06 of the raw command's on {same} of {len(scored)} directions; "
                  f"{sum(r['differ_first'] == 0 and r['differ_second'] == 0 for r in scored)} directions have no line that "
                  "differs from the per-line runs, on either pass."]
    pathlib.Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"quality: wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
