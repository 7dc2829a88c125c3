#!/usr/bin/env bash
# make fuzz: builds glossa-fuzz with libFuzzer (swiftc -sanitize=fuzzer, GLOSSA_FUZZ=1 in Package.swift)
# in .build/fuzz and fuzzes
# every target for FUZZ_SECONDS each (default 60), starting from the committed corpus in
# Fuzz/corpus/TARGET. New interesting inputs go to .build/fuzz/corpus/TARGET (not committed; copy
# the useful ones into Fuzz/corpus). A crash stops the run with a non-zero status and its input is
# saved as Fuzz/regressions/TARGET-<hash>: fix the bug, keep the file, and FuzzRegressionTests
# replays it in every `swift test`.
#   FUZZ_TARGETS="request html"  only these targets
set -euo pipefail
# Crashes go to libFuzzer's handler (which saves the input), not to Swift's backtracer.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-60}
BUILD=.build/fuzz
GLOSSA_FUZZ=1 $SWIFT build --build-path "$BUILD" --product glossa-fuzz
BIN="$BUILD/debug/glossa-fuzz"
TARGETS=${FUZZ_TARGETS:-$(ls Fuzz/corpus)}
mkdir -p Fuzz/regressions
status=0
for target in $TARGETS; do
  work="$BUILD/corpus/$target"
  mkdir -p "$work"
  echo "== fuzzing $target for ${SECONDS_EACH}s"
  # -rss_limit_mb bounds memory; -timeout names an input that hangs (seconds per input).
  if ! "$BIN" "$target" -max_total_time="$SECONDS_EACH" -rss_limit_mb=4096 -timeout=20 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="Fuzz/regressions/$target-" "$work" "Fuzz/corpus/$target" 2>"$BUILD/$target.log"; then
    tail -40 "$BUILD/$target.log"
    echo "glossa-fuzz: $target found a crash; its input is in Fuzz/regressions/ (see above)" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$BUILD/$target.log" | sed "s/^/  $target /"
  fi
done
exit $status
