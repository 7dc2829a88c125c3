#!/usr/bin/env python3
"""Writes a language-identification test set cut from the gettext catalogues (.mo) of installed
Debian packages: short UI strings, the kind of text a translation service receives, and data of
another kind than FLORES-200 (the set `make detect-testdata` writes).

    export-gettext-testset.py LANGUAGES.tsv OUT_DIR [--locale-dir /usr/share/locale]... [--per-kind 300]
                              [--packages PKG,PKG,...]

Writes OUT_DIR/<code>/{single-words,word-pairs,sentences}.txt (one text a line, UTF-8), the layout
`make detect-accuracy DETECT_TESTDATA=OUT_DIR` reads, and prints a summary table. Stdlib only.
The set depends on which catalogues are there: gettext-testset.sh installs a fixed list of
packages and passes it as --packages, so that other installed packages do not change it.
"""
import argparse
import functools
import hashlib
import html
import math
import os
import re
import struct
import sys
import unicodedata
from collections import defaultdict

KINDS = ("single-words", "word-pairs", "sentences")
DPKG_INFO = "/var/lib/dpkg/info"
THIN = 30  # fewer texts of a kind than this: written, but flagged as thin in the summary

# Catalogues of names rather than UI text: ISO 3166-2 subdivisions and ISO 639-3/-5 (thousands of
# minor languages) are mostly local proper names, transliterated or left as they are, so they test
# a script far more than a language. Countries, major languages, currencies and scripts stay.
EXCLUDED_DOMAINS = {"iso_3166-2", "iso_3166_2", "iso_639-3", "iso_639_3", "iso_639-5", "iso_639_5"}

# Locale language → the model's code where the two differ. `fil` and `tl` are both Tagalog
# (Filipino is its standard form); `no` is the old name of Norwegian Bokmål catalogues.
LANGUAGE_ALIASES = {"fil": "tl", "no": "nb"}
# Chinese: the region or script names the script, and the model has one code per script.
CHINESE = {"CN": "zh-Hans", "SG": "zh-Hans", "Hans": "zh-Hans", "TW": "zh-Hant", "HK": "zh-Hant", "MO": "zh-Hant", "Hant": "zh-Hant"}
# Regions whose catalogues are in another script than the model's language: Punjabi of Pakistan
# is Shahmukhi (Arabic script), Azerbaijani of Iran Arabic script; the model knows the other one.
OTHER_SCRIPT_REGIONS = {("pa", "PK"), ("az", "IR")}
# Modifiers name a script or a variant. Serbian: the model's `sr` is Cyrillic (srp_Cyrl), as are
# plain `sr` and `sr@cyrillic` catalogues; the model has no Serbian Latin, so `sr@latin`/`sr@Latn`
# (hr or bs to any detector) are skipped. Variants (`ca@valencia`, `sr@ije`, `en@quot`) are
# skipped too: the set tests each language's standard form. They keep their language's identity
# for the ambiguity rule (a Valencian string is no sign that a Catalan one is ambiguous).
LATIN_MODIFIERS = {"latin", "Latn", "iqtelif", "ijekavianlatin"}
CYRILLIC_MODIFIERS = {"cyrillic", "Cyrl"}


def locale_identity(folder):
    """(language identity, model code or None) of a locale folder name. The identity tells
    different languages apart for the ambiguity rule, also for languages the model lacks."""
    # LibreOffice names its folders with hyphens: pt-BR, sr-Latn, ca-valencia.
    folder = re.sub(r"-(Latn|Cyrl|valencia)$", r"@\1", folder).replace("-", "_")
    base, _, modifier = folder.partition("@")
    language, _, region = base.partition("_")
    language = LANGUAGE_ALIASES.get(language, language)
    if language == "zh":
        code = CHINESE.get(region)
        return (code or folder), code
    script = "-Latn" if modifier in LATIN_MODIFIERS else "-Cyrl" if modifier in CYRILLIC_MODIFIERS else ""
    if (language, region) in OTHER_SCRIPT_REGIONS:
        script = "-Arab"
    identity = language + script
    if language == "en":
        # English texts are the msgids (English is gettext's source language); en_GB, en@quot and
        # the other English variants would only repeat them with small changes.
        return "en", None
    if language == "sr" and script in ("", "-Cyrl"):
        return "sr", ("sr" if modifier in ("", "cyrillic", "Cyrl") else None)
    return identity, (language if modifier == "" and script == "" else None)


# --- reading .mo files ------------------------------------------------------------------------

def read_mo(path):
    """(msgid, msgstr) pairs of a .mo file, decoded; the header entry left out. Contexts
    (`ctx\\x04msgid`) are cut off; plural entries give the singular msgid and msgstr[0]."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 20:
        return []
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">" if magic == 0xDE120495 else None
    if order is None:
        return []
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    raw = []
    for i in range(count):
        length, offset = struct.unpack_from(order + "2I", data, originals + 8 * i)
        tlength, toffset = struct.unpack_from(order + "2I", data, translations + 8 * i)
        raw.append((data[offset:offset + length], data[toffset:toffset + tlength]))
    charset = "utf-8"
    for msgid, msgstr in raw:
        if msgid == b"":
            match = re.search(rb"charset=([\w.-]+)", msgstr)
            if match and match.group(1).lower() != b"charset":  # "CHARSET": the template's
                charset = match.group(1).decode("ascii")
    try:
        "".encode(charset)
    except LookupError:
        charset = "utf-8"
    pairs = []
    for msgid, msgstr in raw:
        if msgid == b"":
            continue
        msgid = msgid.split(b"\x04", 1)[-1].split(b"\x00", 1)[0]
        msgstr = msgstr.split(b"\x00", 1)[0]
        try:
            pairs.append((msgid.decode(charset), msgstr.decode(charset)))
        except (UnicodeDecodeError, LookupError):
            continue  # a mis-encoded entry: nothing to measure on
    return pairs


# --- cleaning ---------------------------------------------------------------------------------

# Placeholders are filled in by the program, so they are no text of the language: printf
# (%s, %d, %1$s, %-10.3lf, %'d, %<PRIu64>), Python (%(name)s), Qt (%1, %L1), brace ({name}, {0},
# {0:>5}), shell ($VAR, ${VAR}) and Ruby-style %{name}.
PLACEHOLDER = re.compile(
    r"%(?:\d+\$)?[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|q|j|z|t|I64|I32|I)?[diouxXeEfFgGaAcspnmCS]"
    r"|%<[A-Za-z0-9_]+>|%\([A-Za-z0-9_]+\)[-+ #0]*\d*(?:\.\d+)?[a-zA-Z]|%\{[A-Za-z0-9_]+\}|%L?\d+"
    r"|\{[A-Za-z0-9_.\[\]]*(?:![rsa])?(?::[^{}]*)?\}|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")
# HTML/XML tags are markup, not text.
TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:-]*(?:\s[^<>]*)?/?>")
ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|nbsp|#\d+|#x[0-9a-fA-F]+);")
# CJK menus put the accelerator after the label, in brackets: 打开(_O), ファイル(&F).
BRACKETED_ACCELERATOR = re.compile(r"\s*[(（][_&][A-Za-z0-9][)）]")
# GTK marks the accelerator with `_` before a letter (also inside a word: Ö_ffnen), Qt with `&`
# (`&&` is a literal &), LibreOffice with `~`. A label has one; a string with more (tipo_de_dato)
# is an identifier and keeps them, so that TECHNICAL drops it.
GTK_ACCELERATOR = re.compile(r"[_~](?=[^\W\d_])")
QT_ACCELERATOR = re.compile(r"&(?=[^\W\d_])")
# Brackets and quotes left empty (or holding only punctuation) where a placeholder was:
# "chown (%s, %s)" → "chown (, )", "《%s》" → "《》".
EMPTY_PAIR = re.compile(r"[(\[（《「『〈【]\s*[^\w()\[\]（）《》「」『』〈〉【】]*?\s*[)\]）》」』〉】]"
                        r"|[`'\"“‘«»„‚]\s*[-,.:;/]*\s*['\"”’“‘»«]")
# ...and separators dangling before other punctuation or a closing bracket: "failed: %s." →
# "failed: .", "(dir: %s)" → "(dir: )"; spaces inside brackets and before . and , go too.
DANGLING = re.compile(r"\s*[:;,/：；，、](?=\s*[.,:;!?/)）\]」》：；，、。])|(?<=[(（\[])\s+|\s+(?=[)）\]])|\s+(?=[.,](?:\s|$))")
TIME_ZONE = re.compile(r"(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)/")
# A URL or e-mail address is the same in every language.
URL = re.compile(r"[a-z][a-z0-9+.-]*://|\bwww\.|\S@\S+\.[a-z]", re.IGNORECASE)
# What is left of code after the placeholders went (identifiers, options, paths, key=value,
# wildcards, usage synopses): no language's text, so drop such strings whole.
TECHNICAL = re.compile(r"[_=\\|<>{}\[\]#$^~*%@]|(?:^|\s)--?[A-Za-z]|(?:^|[\s(\"'])[~.]*/[\w.]|\w/\w+/"
                       r"|\w\.\w\w|(?:^|\s)[A-Z0-9]*[A-Z]{8}[A-Z0-9]*(?:\s|$)"
                       r"|\.(?:conf|cfg|txt|sh|py|so|html?|xml|json|ini|desktop|mo|po|deb|rpm|gz|exe)\b")


@functools.lru_cache(maxsize=1 << 20)  # msgids repeat in every locale's catalogue
def clean(text):
    """The text of a msgid or msgstr as a user would read it; "" for one with a URL."""
    if URL.search(text):
        return ""
    text = re.sub(r"[\n\r\t\v\f]", " ", text)  # line breaks and tabs: layout, not text
    text = TAG.sub(" ", text)
    text = ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    text = PLACEHOLDER.sub(" ", text)
    text = text.replace("%%", "%")
    text = BRACKETED_ACCELERATOR.sub("", text)
    if len(GTK_ACCELERATOR.findall(text)) == 1 and text.count("_") + text.count("~") == 1:
        text = GTK_ACCELERATOR.sub("", text)
    if len(QT_ACCELERATOR.findall(text.replace("&&", ""))) == 1:
        text = QT_ACCELERATOR.sub("", text)
    text = text.replace("&&", "&")
    text = EMPTY_PAIR.sub(" ", text)
    text = " ".join(text.split())  # collapse whitespace (NBSP too) and strip
    # A removed placeholder leaves its separators dangling: "%s: error" → ": error",
    # "failed: %s." → "failed: .", "%s, %s" → ",". A label's own final colon stays.
    text = DANGLING.sub("", text)
    # Leading separators too ("%s: error" → "error"); a leading "-" stays when it starts an
    # option (-f, --all), which TECHNICAL then drops.
    text = text.lstrip(":;,.–—·/：；，、。 ").rstrip(";,/；，、 ")
    return text[2:] if text.startswith("- ") else text


@functools.lru_cache(maxsize=1 << 20)
def keep(text):
    """Whether a cleaned string can be a test text at all."""
    if not any(c.isalpha() for c in text):
        return False  # numbers and punctuation only: no language to find
    if TECHNICAL.search(text):
        return False
    return True


# --- words ------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def unspaced_script(char):
    """'han', 'kana' or 'thai' for letters of scripts written without spaces between words."""
    name = unicodedata.name(char, "")
    if name.startswith(("CJK UNIFIED", "CJK COMPATIBILITY IDEOGRAPH")):
        return "han"
    if name.startswith(("HIRAGANA", "KATAKANA")):
        return "kana"
    if name.startswith("THAI"):
        return "thai"
    return None


UNSPACED = re.compile(r"[\u0E00-\u0E7F\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\U00020000-\U0003FFFF]")
LETTER_TOKEN = re.compile(r"\S*[^\W\d_]\S*")


@functools.lru_cache(maxsize=1 << 20)
def word_count(text):
    """Words split on whitespace; a token of letters only counts (a lone dash or number is no
    word). Chinese, Japanese and Thai put no spaces between words, so a whitespace split would
    make every sentence one word: there each run of their letters counts as its length over an
    average word's (Chinese 2 characters, Japanese 3 where kana occur, Thai 6 code points with
    its marks), and each run of other letters in the token (mstype in 指定mstype) as one word."""
    if not UNSPACED.search(text):
        return len(LETTER_TOKEN.findall(text))
    words = 0
    for token in text.split():
        runs = []  # [script or None, letters]
        kana = False
        for c in token:
            if not (c.isalpha() or unicodedata.category(c).startswith("M")):
                if runs and runs[-1][0]:
                    runs.append([None, 0])  # punctuation ends an unspaced run (，、。)
                continue
            script = unspaced_script(c)
            if script == "kana":
                kana = True
            script = "cjk" if script in ("han", "kana") else script  # 開く is one run
            if script is None and runs and unicodedata.category(c).startswith("M"):
                script = runs[-1][0]  # a mark goes with its base letter
            if runs and runs[-1][0] == script:
                runs[-1][1] += 1
            else:
                runs.append([script, 1])
        runs = [run for run in runs if run[1]]
        if not any(script for script, _ in runs):
            words += 1 if runs else 0
            continue
        for script, letters in runs:
            length = 1 if script is None else 6 if script == "thai" else 3 if kana else 2
            words += 1 if script is None else math.ceil(letters / length)
    return words


def kind_of(text):
    n = word_count(text)
    if n == 1:
        return "single-words"
    if n == 2:
        return "word-pairs"
    if 5 <= n <= 25:
        return "sentences"  # a UI sentence; 3-4 words fall between the kinds, longer is help text
    return None


# --- main -------------------------------------------------------------------------------------

def model_languages(path):
    """{code: script} in the file's order; the script is the FLORES stem's (rus_Cyrl → Cyrl),
    Latn for the few languages without FLORES text (an, br: all written in Latin letters)."""
    languages = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                fields = line.rstrip("\n").split("\t")
                stem = fields[1] if len(fields) > 1 else "-"
                languages[fields[0].strip()] = stem.rsplit("_", 1)[1] if "_" in stem else "Latn"
    return languages


@functools.lru_cache(maxsize=None)
def is_latin(char):
    return unicodedata.name(char, "").startswith("LATIN")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages")
    parser.add_argument("out_dir")
    parser.add_argument("--locale-dir", action="append", help="a folder of <locale>/LC_MESSAGES/*.mo; "
                        "may be repeated (default /usr/share/locale)")
    parser.add_argument("--per-kind", type=int, default=300)
    parser.add_argument("--packages", help="comma-separated Debian packages: read only the catalogues "
                        "they install (a set that does not change with whatever else is installed)")
    args = parser.parse_args()
    locale_dirs = args.locale_dir or ["/usr/share/locale"]
    # --packages: a catalogue that dpkg installed for another package is skipped; one that no
    # package owns (a .deb unpacked by gettext-testset.sh) is read.
    skip, keep_files = set(), set()
    if args.packages:
        wanted = set(filter(None, args.packages.split(",")))
        found = set()
        for listing in os.listdir(DPKG_INFO):
            if not listing.endswith(".list"):
                continue
            package = listing[:-5].split(":")[0]
            with open(os.path.join(DPKG_INFO, listing), encoding="utf-8", errors="replace") as f:
                files = {os.path.realpath(line.rstrip("\n")) for line in f if line.endswith(".mo\n")}
            if package in wanted:
                found.add(package)
                keep_files |= files
            else:
                skip |= files
        skip -= keep_files
        for package in sorted(wanted - found):
            print(f"export-gettext-testset: {package} is not installed: its catalogues are left out", file=sys.stderr)
    scripts = model_languages(args.languages)
    codes = list(scripts)
    model = set(codes)

    # candidates[code][casefolded text] = (text, {catalogue, ...})
    candidates = defaultdict(dict)
    # languages[casefolded text] = language identities in which it is a translation (English: msgid)
    languages = defaultdict(set)

    def add(code, identity, text, catalogue):
        key = text.casefold()
        languages[key].add(identity)
        if code in model:
            entry = candidates[code].setdefault(key, (text, set()))
            entry[1].add(catalogue)

    for folder, directory in sorted((folder, os.path.join(root, folder, "LC_MESSAGES"))
                                    for root in locale_dirs for folder in os.listdir(root)):
        if not os.path.isdir(directory):
            continue
        identity, code = locale_identity(folder)
        for name in sorted(os.listdir(directory)):
            domain = name[:-3]
            path = os.path.join(directory, name)
            if not name.endswith(".mo") or domain in EXCLUDED_DOMAINS or os.path.realpath(path) in skip:
                continue
            catalogue = f"{folder}/{domain}"
            try:
                pairs = read_mo(path)
            except (OSError, struct.error):
                continue
            for msgid, msgstr in pairs:
                if TIME_ZONE.match(msgid):
                    continue  # Europe/Brussels: a place name, and written with a slash
                source = clean(msgid)
                # English: gettext's msgids are the English source texts.
                if keep(source):
                    add("en", "en", source, domain)
                if identity == "en":
                    continue
                text = clean(msgstr)
                if not keep(text):
                    continue
                if text.casefold() == source.casefold():
                    # Untranslated (copied) or a loanword kept as it is: nothing the language owns.
                    # A short one still shows the word is at home in both languages, so it counts
                    # for the ambiguity rule below; a copied sentence is a translator's gap.
                    if word_count(text) <= 2:
                        languages[text.casefold()].add(identity)
                    continue
                add(code, identity, text, catalogue)

    summary = []
    written = 0
    for code in codes:
        kinds = {kind: [] for kind in KINDS}
        for key, (text, catalogues) in candidates.get(code, {}).items():
            # A text found in two or more languages ("OK", "Status", "Internet") has no single
            # right answer: drop it everywhere. Keys are casefolded, so this also dedupes.
            if len(languages[key]) >= 2:
                continue
            if scripts[code] != "Latn" and all(is_latin(c) for c in text if c.isalpha()):
                continue  # Latin letters only in a language of another script: a name or term (ISO B5, zsh)
            kind = kind_of(text)
            if kind:
                kinds[kind].append((hashlib.sha1(text.encode("utf-8")).hexdigest(), text, catalogues))
        chosen = {}
        sources = set()
        for kind, items in kinds.items():
            # Deterministic sample: the first --per-kind texts in sha1 order.
            items.sort()
            chosen[kind] = [text for _, text, _ in items[:args.per_kind]]
            for _, _, catalogues in items[:args.per_kind]:
                sources |= catalogues
        counts = [len(chosen[kind]) for kind in KINDS]
        if min(counts) > 0:
            # detect-accuracy scores an empty kind as 0%, so a language needs a text of each kind.
            directory = os.path.join(args.out_dir, code)
            os.makedirs(directory, exist_ok=True)
            for kind in KINDS:
                with open(os.path.join(directory, kind + ".txt"), "w", encoding="utf-8") as f:
                    f.write("".join(text + "\n" for text in chosen[kind]))
            written += 1
        elif os.path.isdir(os.path.join(args.out_dir, code)):
            # A language written by an earlier run but not now: remove its files, not leave them.
            for kind in KINDS:
                stale = os.path.join(args.out_dir, code, kind + ".txt")
                if os.path.exists(stale):
                    os.remove(stale)
        catalogue_count = len(sources)  # English: distinct domains; others: locale/domain files
        status = "missing" if min(counts) == 0 else "thin" if min(counts) < THIN else ""
        summary.append((code, counts, catalogue_count, status))

    print(f"{'language':<9} {'single':>6} {'pairs':>6} {'sentences':>9} {'catalogues':>10}  note")
    for code, counts, catalogue_count, status in summary:
        print(f"{code:<9} {counts[0]:>6} {counts[1]:>6} {counts[2]:>9} {catalogue_count:>10}  {status}")
    full = sum(1 for _, counts, _, _ in summary if min(counts) >= 100)
    thin = [code for code, _, _, status in summary if status == "thin"]
    missing = [code for code, _, _, status in summary if status == "missing"]
    print(f"export-gettext-testset: wrote {written} languages to {args.out_dir}; "
          f"{full} with ≥100 texts of each kind; thin (<{THIN} of a kind): {' '.join(thin) or 'none'}; "
          f"not written (a kind empty): {' '.join(missing) or 'none'}")


if __name__ == "__main__":
    sys.exit(main())
