#!/usr/bin/env bash
# Regenerates the detector model (Sources/LanguageDetection/Data/detector.model) and the
# held-out test sets (.build/detector-model/testdata, FLORES; .build/detector-model/latin-testdata,
# Livy), from FLORES-200 dev, PyPI wordfreq, Debian spelling dictionaries, the gettext catalogues
# of the Debian packages below and, for Latin, the Clementine Vulgate (PyPI vulgata-spacy).
# `make detector-profiles` installs what it needs and runs this.
# Usage: tests/tools/detector-model/generate.sh [--testdata-only] FLORES_DIR [PYTHON]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
only_testdata=""
if [ "${1:-}" = "--testdata-only" ]; then only_testdata=1; shift; fi
flores=${1:?usage: generate.sh [--testdata-only] FLORES_DIR [PYTHON]}
python=${2:-$root/.venv/bin/python}
tool="$root/tests/tools/detector-model"
work="$root/.build/detector-model"
swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
[ -f "$flores/eng_Latn.dev" ] || { echo "detector-model: no FLORES-200 dev files in $flores" >&2; exit 1; }
mkdir -p "$work"
"$swiftc" -O -module-name DetectorModelTool -I "$root/Sources/CZlib" -lz -o "$work/detector-model" \
  "$tool"/*.swift "$root"/Sources/LanguageDetection/Model/*.swift
"$work/detector-model" testdata "$tool/languages.tsv" "$flores" "$work/testdata"

# Debian packages are downloaded and unpacked under .build, never installed.
debs=$work/debs
unpack() { "$tool/unpack-deb.sh" "$debs" "$1"; }   # $debs/PACKAGE then holds the package's files

# Latin's test set: Livy's story of Lucretia (Ab urbe condita 1.57-59, public domain), the
# sample text of Debian's collatinus (GPL-3 package): another author, age and spelling (u for v)
# than the Vulgate Latin is trained on.
# Without apt's network the FLORES test set (--testdata-only) is still written; a model is not.
if unpack collatinus; then
  "$work/detector-model" text-testdata "$tool/languages.tsv" "$debs/collatinus/usr/share/collatinus/data/lucretia.txt" \
    "$work/latin-testdata" la
else
  echo "detector-model: collatinus could not be downloaded: no Latin test set" >&2
  [ -n "$only_testdata" ] || exit 1
fi
[ -n "$only_testdata" ] && exit 0

# UI vocabulary: the gettext catalogues of these packages (GUI programs and their data, 100+
# languages each). None is a package the gettext test set reads (gettext-testset.sh), so that set
# stays unseen; the split is by package, checked here.
ui_pkgs=(cinnamon-l10n vlc-l10n pidgin-data filezilla-common xfce4-panel xfce4-settings mousepad ristretto
         gnome-terminal-data gnome-calculator file-roller rhythmbox-data brasero-common shotwell-common
         mate-desktop-common transmission-common evolution-common)
for p in "${ui_pkgs[@]}"; do
  if grep -qw -- "$p" "$tool/gettext-testset.sh"; then echo "detector-model: $p is read by the gettext test set" >&2; exit 1; fi
  unpack "$p"
done
catalogues=()
for p in "${ui_pkgs[@]}"; do catalogues+=(--catalogues "$debs/$p"); done

# Word lists already exported are kept; remove $work/wordlists to export anew.
"$python" "$tool/export-wordlists.py" "$tool/languages.tsv" "$work/wordlists" "${catalogues[@]}"
# The languages' priors are their shares of online text, traffic.tsv (committed beside languages.tsv).
"$work/detector-model" train "$tool/languages.tsv" "$flores" "$work/wordlists" \
  "$root/Sources/LanguageDetection/Data/detector.model"
