#!/usr/bin/env bash
#===- scripts/test.sh - Set up, build and run the whole test suite --------===#
#
# Then, when GATHER_FUZZ_SMOKE_SECONDS > 0 (default: 60 under CI=true, else
# 0), a fuzz smoke run: scripts/fuzz.sh for that long; a crash fails the run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cmake --build "$root/build" --target check-gather 2>&1 | tee "$log" || status=$?

# One plain closing line for CI: "N passed, N failed".
# lit pads the labels when a line such as "Unsupported:" is also printed
# ("  Passed     : 27 (96.43%)").
count() {
  awk -F: -v k="$1" '{ l = $1; gsub(/ /, "", l) } l == k { split($2, v, " "); n += v[1] }
    END { print n + 0 }' "$log"
}
passed=$(count Passed); failed=$(count Failed)
summary="check-gather: ${passed:-0} passed, ${failed:-0} failed"

if [[ ${CI:-} == true ]]; then default_smoke=60; else default_smoke=0; fi
smoke=${GATHER_FUZZ_SMOKE_SECONDS:-$default_smoke}
if [[ $smoke =~ ^[0-9]+$ ]] && ((smoke > 0)); then
  echo "== fuzz smoke: scripts/fuzz.sh $smoke"
  fuzz_status=0
  bash "$root/scripts/fuzz.sh" "$smoke" || fuzz_status=$?
  if ((fuzz_status != 0)); then
    summary="$summary; fuzz smoke FAILED (crash or build failure, see above)"
    status=1
  else
    summary="$summary; fuzz smoke: no crash in ${smoke}s"
  fi
fi

echo "$summary"
if ((status != 0)) || [[ ${passed:-0} == 0 ]]; then exit 1; fi
