#!/usr/bin/env bash
# Regenerates the detector model (Sources/LanguageDetection/Data/detector.model) and the
# held-out test set (.build/detector-model/testdata), from FLORES-200 dev, PyPI wordfreq and
# Debian spelling dictionaries. `make detector-profiles` installs what it needs and runs this.
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
[ -n "$only_testdata" ] && exit 0
# Word lists already exported are kept; remove $work/wordlists to export anew.
"$python" "$tool/export-wordlists.py" "$tool/languages.tsv" "$work/wordlists"
# The languages' priors are their shares of online text, traffic.tsv (committed beside languages.tsv).
"$work/detector-model" train "$tool/languages.tsv" "$flores" "$work/wordlists" \
  "$root/Sources/LanguageDetection/Data/detector.model"
