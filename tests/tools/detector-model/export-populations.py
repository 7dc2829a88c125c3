#!/usr/bin/env python3
"""Writes the detector's language priors: per model language its writing population (people
who read and write it), from the Unicode CLDR territory data that PyPI `language_data` ships
(through `langcodes`, both installed with wordfreq; CLDR data under the Unicode licence,
language_data under MIT). The trainer turns these into log priors (a language's share of the
world's readers and writers), and learns how much weight they get per text length.

Usage: export-populations.py LANGUAGES.tsv OUT.tsv
"""
import sys

import langcodes


def main():
    languages, out = sys.argv[1], sys.argv[2]
    rows = []
    for line in open(languages, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        code = line.split("\t")[0]
        population = langcodes.Language.get(code).writing_population()
        # A language CLDR has no figure for gets the smallest one (a floor, not zero: the log
        # prior must stay finite).
        rows.append((code, population))
    floor = min(p for _, p in rows if p > 0)
    with open(out, "w", encoding="utf-8") as f:
        f.write("# code\twriting population (Unicode CLDR via PyPI language_data; written by export-populations.py)\n")
        for code, population in rows:
            f.write(f"{code}\t{max(population, floor)}\n")


if __name__ == "__main__":
    main()
