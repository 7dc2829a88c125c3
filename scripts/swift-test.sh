#!/usr/bin/env bash
# Runs the Swift test suite for `make test`: the whole output goes to the terminal and to LOG; past
# SECONDS_LIMIT a hang ends the run. On failure it prints, last, what went wrong — the tests that
# failed with their recorded issues and, after a crash, the crashing thread's frames — because CI
# keeps only the tail of a run's output, and a crash report ends in register dumps and library
# lists that say nothing of which test crashed or where.
# Usage: scripts/swift-test.sh SWIFT LOG SECONDS_LIMIT
set -uo pipefail
swift=${1:?usage: swift-test.sh SWIFT LOG SECONDS_LIMIT}
log=${2:?usage: swift-test.sh SWIFT LOG SECONDS_LIMIT}
limit=${3:?usage: swift-test.sh SWIFT LOG SECONDS_LIMIT}
mkdir -p "$(dirname "$log")"
timeout --kill-after=30 "$limit" "$swift" test --skip-build --parallel --num-workers 2 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && exit 0
{
  echo
  echo "=== swift test failed (exit $status); the full output is in $log ==="
  [ "$status" -eq 124 ] || [ "$status" -eq 137 ] && echo "It ran past $limit s and was stopped: a test hangs."
  echo "--- tests that failed, with their issues ---"
  grep -E '✘|recorded an issue|error: ' "$log" | grep -v 'Images' | head -60
  echo "--- tests started and never finished (the ones running when it ended) ---"
  # A test's start line is `◇ Test NAME started.`; its end names it again as passed or failed
  # (`━` begins the end line of a test that passed with known issues).
  grep -E '^◇ Test .* started\.$' "$log" | grep -v -e '^◇ Test case ' -e '^◇ Test run started' \
    | sed -e 's/^◇ Test //' -e 's/ started\.$//' | sort -u > "$log.started"
  grep -E '^[✔✘━] Test .* (passed|failed) after [0-9.]+ seconds' "$log" | sed -E -e 's/^[✔✘━] Test //' \
    -e 's/( with [0-9]+ test cases?)? (passed|failed) after [0-9.]+ seconds.*$//' | sort -u > "$log.ended"
  comm -23 "$log.started" "$log.ended" | head -20
  rm -f "$log.started" "$log.ended"
  echo "--- crash report (the crashing thread) ---"
  awk '/Program crashed|Fatal error|SWIFT TASK CONTINUATION MISUSE|Simultaneous accesses|terminate called|GNU libmicrohttpd/ { show = 60 }
       /^Registers:|^Images/ { show = 0 }
       show > 0 { print; show-- }' "$log" | head -120
} >&2
exit "$status"
