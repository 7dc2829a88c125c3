#!/usr/bin/env python3
"""Writes the word lists the detector model is trained on, one file per language, for the
Swift trainer (main.swift) to read: OUT/<code>.freq.tsv (word TAB frequency, from PyPI wordfreq)
and OUT/<code>.dict.txt (one word a line, from a Debian spelling dictionary).

Usage: export-wordlists.py LANGUAGES.tsv OUT_DIR [TOP_WORDS] [DICTIONARY_SAMPLE] [--catalogues DIR]...

Sources and licences (recorded in Sources/LanguageDetection/Data/SOURCES.md):
- wordfreq 3.1.1 (PyPI, pinned in tests/tools/detector-model/requirements.txt): code Apache-2.0,
  data CC-BY-SA 4.0.
- Debian hunspell-*/aspell-*/myspell-* dictionaries: expanded with hunspell-tools' `unmunch`
  or `aspell expand`; each package's licence is in its /usr/share/doc/<package>/copyright.
- Translated lists, for languages wordfreq lacks (Galician, Asturian, Occitan, Sardinian,
  Silesian, Aragonese): a close language's wordfreq list, each word translated on its own by a
  Debian Apertium pair (`SOURCE|PACKAGE|MODE` in column 3 of languages.tsv, e.g.
  `es|apertium-es-gl|es-gl`), keeping the source word's frequency. Apertium's pairs are GPL
  (their /usr/share/doc/<package>/copyright); the list's words are the pair's output.

- The Clementine Vulgate (public domain), for Latin (`vulgate` in column 3): the verses of
  vulgata_spacy/data/clem_vulgate.csv in PyPI `vulgata-spacy` 0.0.1, downloaded with
  `pip download --no-deps` into OUT_DIR/downloads; its words counted as a frequency list.
- UI vocabulary (OUT_DIR/<code>.ui.tsv, word TAB count): the translated strings of the gettext
  catalogues under each --catalogues DIR (generate.sh unpacks the Debian packages of
  ui-packages.txt there, none of which the gettext test set reads), cleaned as
  export-gettext-testset.py cleans its texts; English from the msgids.

A list already in OUT_DIR is kept (delete OUT_DIR to export anew).

Words are written as wordfreq or the dictionary spells them; the trainer NFC-normalises,
lower-cases and keeps letters only, exactly as the detector reads text.
"""
import collections
import csv
import glob
import hashlib
import heapq
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import wordfreq

# Lines of `unmunch` output read at most per dictionary: a count, not a time limit, so that the
# sample (and so the model) does not depend on how fast the machine is. Every dictionary that
# languages.tsv names expands to fewer lines (the largest, hunspell-mn, to about 11.6 million from
# its sampled stems; Galician's would give about 250 million).
MAX_EXPANDED_LINES = 50_000_000


def serbian_cyrillic(word):
    """Serbo-Croatian Latin → Serbian Cyrillic (the two alphabets map one to one; digraphs first)."""
    pairs = [("dž", "џ"), ("lj", "љ"), ("nj", "њ")]
    single = dict(zip("abcčćdđefghijklmnoprsštuvzž", "абцчћдђефгхијклмнопрсштувзж"))
    out, i = [], 0
    while i < len(word):
        for latin, cyrillic in pairs:
            if word.startswith(latin, i):
                out.append(cyrillic)
                i += len(latin)
                break
        else:
            if word[i] not in single:
                return None
            out.append(single[word[i]])
            i += 1
    return "".join(out)


def wordfreq_words(spec, top):
    name = spec.split("-")[0]
    words = sorted(wordfreq.get_frequency_dict(name, wordlist="best").items(), key=lambda item: (-item[1], item[0]))
    out = []
    for word, frequency in words:
        if spec == "sh-cyrl":
            word = serbian_cyrillic(word)
            if word is None:
                continue
        if not any(ch.isalpha() for ch in word):
            continue
        out.append((word, frequency))
        if len(out) >= top:
            break
    return out


def translated_words(spec, top):
    """A frequency list for a language wordfreq lacks: the `top` words of a close language's list,
    each translated alone by an Apertium mode (spec `SOURCE|PACKAGE|MODE`), with the source word's
    frequency (words that translate alike add up). Words Apertium does not know (`*`), cannot
    generate (`#`) or transfer (`@`) are left out, so the list holds only forms the target
    language's dictionary has. Each word is its own sentence (" ." after it): otherwise Apertium
    reads the list as one text and joins neighbours ("de" + "la" → Galician "da")."""
    source, package, mode = spec.split("|")
    words = wordfreq_words(source, top)
    result = subprocess.run(["apertium", "-f", "txt", mode], input="".join(f"{w} .\n" for w, _ in words),
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"export-wordlists: apertium {mode} failed ({result.stderr.strip()}): install {package}")
    lines = result.stdout.split("\n")[:len(words)]
    if len(lines) != len(words):
        raise SystemExit(f"export-wordlists: apertium {mode} gave {len(lines)} lines for {len(words)} words")
    frequency = {}
    for (_, f), line in zip(words, lines):
        translated = line.strip().removesuffix(".").strip()
        if translated and not any(mark in translated for mark in "*#@"):
            frequency[translated] = frequency.get(translated, 0.0) + f
    return sorted(frequency.items(), key=lambda item: (-item[1], item[0]))


def bottom_k(words, k):
    """A uniform, reproducible sample of at most k distinct words: those with the k smallest
    hashes (a bottom-k sketch). Some dictionaries expand to tens of millions of forms (Breton,
    Basque); a sample keeps the model's size bounded without favouring any part of the alphabet."""
    heap, seen = [], set()
    for word in words:
        if word in seen:
            continue
        key = -int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big")
        if len(heap) < k:
            heapq.heappush(heap, (key, word))
            seen.add(word)
        elif key > heap[0][0]:
            _, dropped = heapq.heappushpop(heap, (key, word))
            seen.discard(dropped)
            seen.add(word)
    return sorted(word for _, word in heap)


def dictionary_words(package, cap):
    """A sample of the forms a Debian spelling dictionary accepts (see bottom_k)."""
    if package.startswith("aspell-"):
        code = package.split("-", 1)[1]
        dump = subprocess.Popen(["aspell", "-d", code, "dump", "master"], stdout=subprocess.PIPE)
        expand = subprocess.Popen(["aspell", "-l", code, "expand"], stdin=dump.stdout, stdout=subprocess.PIPE)
        dump.stdout.close()
        words = (w for line in expand.stdout for w in line.decode("utf-8", "replace").split())
        sample = bottom_k(words, cap)
        expand.wait()
        return sample
    # hunspell-* / myspell-*: the package's .dic/.aff pair, expanded by unmunch.
    code = package.split("-", 1)[1]
    candidates = sorted(glob.glob(f"/usr/share/hunspell/{code}_*.dic") + glob.glob(f"/usr/share/hunspell/{code}.dic"))
    if not candidates:
        raise SystemExit(f"export-wordlists: no /usr/share/hunspell/{code}*.dic: install {package}")
    dic = candidates[0]
    aff = dic[:-4] + ".aff"
    encoding = "utf-8"
    with open(aff, "rb") as handle:
        for line in handle:
            if line.startswith(b"SET "):
                encoding = line.split()[1].decode()
                break
    # Expand a sample of the stems, not all of them: some dictionaries (Galician, Breton) expand
    # to tens of millions of forms, which takes an hour; a sample of stems gives a sample of forms.
    with open(dic, "rb") as handle:
        stems = handle.read().split(b"\n")[1:]
    sampled = bottom_k((line.decode("latin-1") for line in stems if line.strip()), cap // 4)
    # In hash order, not alphabetical: if the expansion is cut short (below), what was expanded
    # is still a sample of the whole alphabet.
    sampled.sort(key=lambda line: hashlib.blake2b(line.encode("latin-1"), digest_size=8).digest())
    with tempfile.NamedTemporaryFile("wb", suffix=".dic", delete=False) as sample_dic:
        sample_dic.write(f"{len(sampled)}\n".encode())
        sample_dic.write(b"\n".join(line.encode("latin-1") for line in sampled) + b"\n")
    try:
        unmunch = subprocess.Popen(["unmunch", sample_dic.name, aff], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

        def forms():
            # A few affix files (Galician's clitics) expand each verb into thousands of forms:
            # the expansion stops after MAX_EXPANDED_LINES lines, the same ones on every machine.
            for count, line in enumerate(unmunch.stdout):
                if count >= MAX_EXPANDED_LINES:
                    unmunch.kill()
                    break
                # "form/FLAGS po:morphology …": the form is the first field.
                fields = line.decode(encoding, "replace").split("/")[0].split()
                if fields:
                    yield fields[0]

        sample = bottom_k(forms(), cap)
        unmunch.wait()
    finally:
        os.unlink(sample_dic.name)
    return sample


VULGATE = ("vulgata-spacy==0.0.1", "vulgata_spacy/data/clem_vulgate.csv")


def vulgate_words(out_dir, top):
    """Latin word frequencies from the Clementine Vulgate (column `latin` of the package's CSV,
    35,800 verses): each word's share of the running words, the `top` most frequent; the held-back
    verses go to OUT_DIR/la.tuning.txt."""
    import zipfile
    downloads = os.path.join(out_dir, "downloads")
    wheels = glob.glob(os.path.join(downloads, "vulgata_spacy-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                        VULGATE[0], "-d", downloads], check=True)
        wheels = glob.glob(os.path.join(downloads, "vulgata_spacy-*.whl"))
    with zipfile.ZipFile(wheels[0]) as wheel:
        text = wheel.read(VULGATE[1]).decode("utf-8")
    counts = collections.Counter()
    tuning = []
    for number, row in enumerate(csv.DictReader(text.splitlines())):
        # Every 350th verse (about 100, spread over the books) is held back from the counts: the
        # text the trainer tunes Latin's decision rule on (OUT_DIR/la.tuning.txt), as it tunes
        # the FLORES languages on lines 701-800.
        if number % 350 == 175:
            tuning.append(" ".join(row["latin"].split()))
            continue
        counts.update(w.lower() for w in re.findall(r"[^\W\d_]+", row["latin"]))
    with open(os.path.join(out_dir, "la.tuning.txt"), "w", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in tuning)
    total = sum(counts.values())
    return [(w, c / total) for w, c in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:top]]


def catalogue_words(directories, codes):
    """{code: Counter of words} of the translated strings of every gettext catalogue (.mo) under
    the directories (any depth, <locale>/LC_MESSAGES/<domain>.mo), read and cleaned with the
    gettext test set's own functions (export-gettext-testset.py), so that the training text is
    the kind of text that set holds. A string counts once per catalogue; one equal to its msgid
    (untranslated) is left out; English counts each msgid once per domain."""
    spec = importlib.util.spec_from_file_location("gettext_testset", os.path.join(os.path.dirname(os.path.abspath(__file__)), "export-gettext-testset.py"))
    gt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gt)
    words = collections.defaultdict(collections.Counter)
    seen_english = set()
    files = sorted(glob.glob(os.path.join(d, "**", "LC_MESSAGES", "*.mo"), recursive=True) for d in directories)
    for path in (p for group in files for p in group):
        folder = path.split(os.sep)[-3]
        domain = os.path.basename(path)[:-3]
        if domain in gt.EXCLUDED_DOMAINS:
            continue
        _, code = gt.locale_identity(folder)
        for msgid, msgstr in gt.read_mo(path):
            if gt.TIME_ZONE.match(msgid):
                continue
            source = gt.clean(msgid)
            if gt.keep(source) and (domain, source) not in seen_english:
                seen_english.add((domain, source))
                words["en"].update(WORD.findall(source.lower()))
            if code is None or code not in codes or code == "en":
                continue
            text = gt.clean(msgstr)
            if gt.keep(text) and text.casefold() != source.casefold():
                words[code].update(WORD.findall(text.lower()))
    return words


# See main: a UI word in this many languages' catalogues or more is a name, not a word of theirs.
UI_SHARED_LANGUAGES = 10
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def main():
    args = sys.argv[1:]
    catalogues = []
    while "--catalogues" in args:
        i = args.index("--catalogues")
        catalogues.append(args[i + 1])
        del args[i:i + 2]
    languages, out_dir = args[0], args[1]
    top = int(args[2]) if len(args) > 2 else 30000
    cap = int(args[3]) if len(args) > 3 else 100000
    os.makedirs(out_dir, exist_ok=True)
    rows = [line.rstrip("\n").split("\t") for line in open(languages, encoding="utf-8") if not line.startswith("#") and line.strip()]
    # UI words for every language but Latin (its model is the Vulgate's alone, so that its test
    # on other Latin text measures one source against another) and those written without spaces
    # between words (Chinese, Japanese, Thai), whose "words" in a catalogue are whole phrases:
    # they filled the word table with labels and cost Simplified Chinese its short texts.
    ui_codes = {row[0] for row in rows} - {"la", "zh-Hans", "zh-Hant", "ja", "th"}
    if catalogues and not all(os.path.exists(os.path.join(out_dir, f"{code}.ui.tsv")) for code in ui_codes):
        found = catalogue_words(catalogues, ui_codes)
        # A word in the UI vocabulary of many languages is a name the catalogues keep as it is
        # (Bonjour, the Zeroconf protocol; VLC; GNOME; DVD), not a word of each of them: left out
        # of every list (the word lists and FLORES still have the languages' own words).
        spread = collections.Counter(word for counts in found.values() for word in counts)
        for counts in found.values():
            for word in [w for w in counts if spread[w] >= UI_SHARED_LANGUAGES]:
                del counts[word]
        for code in sorted(ui_codes):
            counts = found.get(code, collections.Counter())
            with open(os.path.join(out_dir, f"{code}.ui.tsv"), "w", encoding="utf-8") as out:
                out.writelines(f"{w}\t{c}\n" for w, c in sorted(counts.items(), key=lambda item: (-item[1], item[0])))
        print("UI words from gettext catalogues: " + ", ".join(f"{code} {sum(found.get(code, {}).values())}" for code in sorted(ui_codes)))
    for line in open(languages, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        code, _flores, frequency_list, dictionary = line.rstrip("\n").split("\t")
        if frequency_list != "-" and not os.path.exists(os.path.join(out_dir, f"{code}.freq.tsv")):
            translated = "|" in frequency_list
            if frequency_list == "vulgate":
                words = vulgate_words(out_dir, top)
            else:
                words = translated_words(frequency_list, top) if translated else wordfreq_words(frequency_list, top)
            with open(os.path.join(out_dir, f"{code}.freq.tsv"), "w", encoding="utf-8") as out:
                out.writelines(f"{w}\t{f:.4g}\n" for w, f in words)
            origin = "the Clementine Vulgate (PyPI vulgata-spacy)" if frequency_list == "vulgate" else f"wordfreq '{frequency_list.split('|')[0]}' through Apertium {frequency_list.split('|')[2]}" if translated else f"wordfreq '{frequency_list}'"
            print(f"{code}: {len(words)} words from {origin}")
        if dictionary != "-" and not os.path.exists(os.path.join(out_dir, f"{code}.dict.txt")):
            words = dictionary_words(dictionary, cap)
            with open(os.path.join(out_dir, f"{code}.dict.txt"), "w", encoding="utf-8") as out:
                out.writelines(w + "\n" for w in words)
            print(f"{code}: {len(words)} words from {dictionary}")


if __name__ == "__main__":
    main()
