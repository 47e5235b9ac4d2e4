#!/usr/bin/env bash
#===- scripts/test.sh - Set up, build and run the whole test suite --------===#
#
# 1. check-gather: lit (FileCheck, execution under mlir-runner, the SDK, the
#    Python suite with Debian's /usr/bin/python3, numpy 1.24 and torch 1.13);
# 2. the Python package as users install it: `pip install .` into a virtual
#    environment (build/venv) with numpy 2 and torch 2.13
#    (python/requirements-test.txt), its suite run from outside the tree,
#    where a skipped test fails;
# 3. when GATHER_FUZZ_SMOKE_SECONDS > 0 (default: 60 under CI=true, else 0),
#    a fuzz smoke run: scripts/fuzz.sh for that long; a crash fails the run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cmake --build "$root/build" --target check-gather 2>&1 | tee "$log" || status=$?

# lit pads the labels when a line such as "Unsupported:" is also printed
# ("  Passed     : 27 (96.43%)").
count() {
  awk -F: -v k="$1" '{ l = $1; gsub(/ /, "", l) } l == k { split($2, v, " "); n += v[1] }
    END { print n + 0 }' "$log"
}
lit_passed=$(count Passed); lit_failed=$(count Failed)
((lit_passed > 0)) || status=1
summary="check-gather: $lit_passed passed, $lit_failed failed"

echo "== pip install . into build/venv (numpy 2, torch 2.13), test/python"
venv=$root/build/venv
pylog=$(mktemp)
trap 'rm -f "$log" "$pylog"' EXIT
py_status=0
{
  [[ -x $venv/bin/python ]] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q -r "$root/python/requirements-test.txt"
  "$venv/bin/python" -m pip install -q "$root"
  # From outside the tree: the installed package, not the build's.
  cd "$venv"
  GATHER_MLIR_NO_SKIPS=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    "$root/test/python"
} 2>&1 | tee "$pylog" || py_status=$?
# pytest's closing line: "N passed" and maybe "N failed", "N errors".
closing=$( (grep -E '^=* ?[0-9]+ (passed|failed|errors?|xfailed|skipped)' \
  "$pylog" || true) | tail -1)
py_passed=$( (grep -oE '[0-9]+ passed' <<<"$closing" || true) |
  awk '{ n += $1 } END { print n + 0 }')
py_failed=$( (grep -oE '[0-9]+ (failed|errors?)' <<<"$closing" || true) |
  awk '{ n += $1 } END { print n + 0 }')
if ((py_status != 0)) && ((py_failed == 0)); then py_failed=1; fi
((py_passed > 0)) || status=1
((py_status == 0)) || status=1
# A failure that pytest's exit status leaves out (an xfail report that a
# hook marked failed) still fails the run.
((py_failed == 0)) || status=1
summary="$summary; installed package: $py_passed passed, $py_failed failed"

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
# One plain closing line for CI: every test of both runs.
echo "tests: $((lit_passed + py_passed)) passed, $((lit_failed + py_failed)) failed"
exit "$status"
