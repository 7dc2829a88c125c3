#!/usr/bin/env python3
"""Writes the word lists the detector model is trained on, one file per language, for the
Swift trainer (main.swift) to read: OUT/<code>.freq.tsv (word TAB frequency, from PyPI wordfreq)
and OUT/<code>.dict.txt (one word a line, from a Debian spelling dictionary).

Usage: export-wordlists.py LANGUAGES.tsv OUT_DIR [TOP_WORDS] [DICTIONARY_SAMPLE]

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

A list already in OUT_DIR is kept (delete OUT_DIR to export anew).

Words are written as wordfreq or the dictionary spells them; the trainer NFC-normalises,
lower-cases and keeps letters only, exactly as the detector reads text.
"""
import glob
import hashlib
import heapq
import os
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


def main():
    languages, out_dir = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 30000
    cap = int(sys.argv[4]) if len(sys.argv) > 4 else 100000
    os.makedirs(out_dir, exist_ok=True)
    for line in open(languages, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        code, _flores, frequency_list, dictionary = line.rstrip("\n").split("\t")
        if frequency_list != "-" and not os.path.exists(os.path.join(out_dir, f"{code}.freq.tsv")):
            translated = "|" in frequency_list
            words = translated_words(frequency_list, top) if translated else wordfreq_words(frequency_list, top)
            with open(os.path.join(out_dir, f"{code}.freq.tsv"), "w", encoding="utf-8") as out:
                out.writelines(f"{w}\t{f:.4g}\n" for w, f in words)
            origin = f"wordfreq '{frequency_list.split('|')[0]}' through Apertium {frequency_list.split('|')[2]}" if translated else f"wordfreq '{frequency_list}'"
            print(f"{code}: {len(words)} words from {origin}")
        if dictionary != "-" and not os.path.exists(os.path.join(out_dir, f"{code}.dict.txt")):
            words = dictionary_words(dictionary, cap)
            with open(os.path.join(out_dir, f"{code}.dict.txt"), "w", encoding="utf-8") as out:
                out.writelines(w + "\n" for w in words)
            print(f"{code}: {len(words)} words from {dictionary}")


if __name__ == "__main__":
    main()
