#!/usr/bin/env bash
#===- scripts/test.sh - Set up, build and run the whole test suite --------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cmake --build "$root/build" --target check-gather 2>&1 | tee "$log" || status=$?

# One plain closing line for CI: "N passed, N failed".
count() { awk -v k="$1:" '$1 == k { n += $2 } END { print n + 0 }' "$log"; }
passed=$(count Passed); failed=$(count Failed)
echo "check-gather: ${passed:-0} passed, ${failed:-0} failed"
if ((status != 0)) || [[ ${passed:-0} == 0 ]]; then exit 1; fi
