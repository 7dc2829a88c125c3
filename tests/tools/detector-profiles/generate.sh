#!/usr/bin/env bash
# Regenerates the short-text detector's n-gram profiles from FLORES-200 dev.
# Usage: tests/tools/detector-profiles/generate.sh [FLORES_DIR] [TRAIN_LINES] [TOP_K]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
flores=${1:-${GLOSSA_FLORES_DIR:-/work/shared/data/flores200-dev}}
swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
mkdir -p "$root/.build/tools"
"$swiftc" -O -module-name DetectorProfiles -o "$root/.build/tools/detector-profiles" \
  "$root/tests/tools/detector-profiles/main.swift" \
  "$root/Sources/LanguageDetection/NGramFeatures.swift" \
  "$root/Sources/LanguageDetection/FLORESLabels.swift"
"$root/.build/tools/detector-profiles" "$flores" \
  "$root/Sources/LanguageDetection/NGramProfiles+Data.swift" "${2:-800}" "${3:-3000}"
