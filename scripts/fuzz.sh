#!/usr/bin/env bash
#===- scripts/fuzz.sh - Build gather-fuzz and fuzz the compiler -----------===#
#
# Usage: bash scripts/fuzz.sh SECONDS [libFuzzer flags...]
#
# Configures build-fuzz/ (GATHER_ENABLE_FUZZER=ON: ASan, UBSan, libFuzzer
# coverage), builds only tools/gather-fuzz, and fuzzes on one core for
# SECONDS, going on past crashes (-fork=1 -ignore_crashes=1), after one
# in-process replay of the seeds and corpus. Inputs that crash go to
# build-fuzz/fuzz/crashes/; the corpus (build-fuzz/fuzz/corpus/)
# grows from run to run. Prints "gather-fuzz: N executions (N/s), N crashes,
# N timeouts, N out-of-memory" and exits 1 if this run found a crash whose
# signature is not one of the open findings in test/fuzz-crashes/.
#
# Environment: GATHER_FUZZ_BUILD (build dir, default build-fuzz),
# GATHER_FUZZ_JOBS (ninja -j, default ninja's), GATHER_FUZZ_OUT (corpus and
# crashes, default $GATHER_FUZZ_BUILD/fuzz).
#
# Reproduce a crash: build-fuzz/bin/gather-fuzz CRASH_FILE
# (GATHER_FUZZ_VERBOSE=1 also prints the pipelines and diagnostics); shrink
# it with: build-fuzz/bin/gather-fuzz -minimize_crash=1 -runs=2000 CRASH_FILE
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 SECONDS [libFuzzer flags...]" >&2
  exit 2
fi
seconds=$1
shift

build=${GATHER_FUZZ_BUILD:-$root/build-fuzz}
out=${GATHER_FUZZ_OUT:-$build/fuzz}
bash "$root/scripts/setup.sh"
# Configure with the preset every time (a few seconds), as build.sh does.
(cd "$root" && cmake --preset fuzz -B "$build" > /dev/null)
cmake --build "$build" --target gather-fuzz -- ${GATHER_FUZZ_JOBS:+-j "$GATHER_FUZZ_JOBS"}

mkdir -p "$out/corpus" "$out/crashes"
rm -rf "$out/seeds"
/usr/bin/python3 "$root/tools/gather-fuzz/make_corpus.py" "$root" "$out/seeds"

# Limits: inputs up to 8 KiB (the largest seed is below); a legal but huge
# shape (tensor<1000000000xf32> folded, or bufferized and run) must not take
# the machine: one allocation over 1 GiB or 2 GiB of RSS is an OOM report,
# and an input that takes 20 s is a timeout report. Neither stops the run.
# Leak checks stay on (each input gets its own MLIRContext, freed after it).
log="$out/fuzz.log"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

touch "$out/.start"

# The open upstream findings gather-fuzz declines (a result number of 65536
# or more, which makes the parser allocate gigabytes; the IR of
# `usesMalformedIteratorTypes` and `hitsUpstreamBug`, files with a
# "// declined:" line) must be declined:
# each runs once here and must not crash.
mkdir -p "$out/declined"
rm -f "$out/declined"/*
cp "$root/test/fuzz-crashes/upstream-parser-huge-result-number.mlir" \
  $(grep -l '^// declined:' "$root"/test/fuzz-crashes/*.mlir) "$out/declined/"
if ! "$build/bin/gather-fuzz" -runs=0 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    "$out/declined" >"$out/declined.log" 2>&1; then
  echo "gather-fuzz: an input it should decline crashed it:" \
    "$(grep -m1 -E 'ERROR' "$out/declined.log" || true)" >&2
  exit 1
fi

# Fork mode drops the inputs that crash while it loads the corpus, so first
# replay the seeds and the corpus once in-process: a crashing seed (a test
# that breaks a pass) is a finding too. This stops at the first such input.
replay_crash=0
if ! "$build/bin/gather-fuzz" -runs=0 -max_len=8192 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -timeout=20 -artifact_prefix="$out/crashes/" \
    "$out/seeds" "$out/corpus" >"$out/replay.log" 2>&1; then
  replay_crash=1
  echo "gather-fuzz: an input of the seeds or corpus crashes:" \
    "$(grep -m1 -E 'ERROR|runtime error|gather-fuzz: pass' "$out/replay.log" || true)"
  grep -m1 -E '^Test unit written to|^artifact_prefix' "$out/replay.log" || true
  echo "  (full report: $out/replay.log)"
fi

status=0
"$build/bin/gather-fuzz" "$out/corpus" "$out/seeds" \
  -dict="$root/tools/gather-fuzz/gather.dict" \
  -max_len=8192 -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=20 \
  -max_total_time="$seconds" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
  -ignore_ooms=1 -artifact_prefix="$out/crashes/" -print_final_stats=1 \
  "$@" >"$log" 2>&1 || status=$?

# The fork-mode status lines: "#N: cov: C ft: F corp: K exec/s: E
# oom/timeout/crash: O/T/C time: Ss job: J dft_time: D".
last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
field() { sed -nE "s/$1/\\1/p" <<<"$last"; }
execs=$(field '^#([0-9]+):.*'); execs=${execs:-0}
rate=$(field '.* exec\/s: ([0-9]+).*'); rate=${rate:-0}
cov=$(field '.* cov: ([0-9]+).*'); cov=${cov:-0}
ooms=$(field '.* oom\/timeout\/crash: ([0-9]+)\/.*'); ooms=${ooms:-0}
timeouts=$(field '.* oom\/timeout\/crash: [0-9]+\/([0-9]+)\/.*'); timeouts=${timeouts:-0}
crashes=$(field '.* oom\/timeout\/crash: [0-9]+\/[0-9]+\/([0-9]+) .*'); crashes=${crashes:-0}
crashes=$((crashes + replay_crash))
echo "gather-fuzz: $execs executions ($rate/s) in ${seconds}s, coverage $cov," \
  "$crashes crashes, $timeouts timeouts, $ooms out-of-memory (log: $log)"
if ((crashes > 0 || timeouts > 0 || ooms > 0)); then
  echo "gather-fuzz: reproducers in $out/crashes/:"
  ls -t "$out/crashes" | head -20 | sed 's/^/  /'
fi
# Each crash of this run is replayed for its signature (the sanitizer's
# first report line, path-free: "GatherShapes.cpp:55:15: runtime error:
# signed integer overflow"). An LLVM ERROR (a fatal error, no sanitizer
# report) also names the first function on the stack that is neither LLVM's
# support code nor the fuzzer's ("LLVM ERROR: SmallVector unable to grow in
# mlir::tensor::FromElementsOp::parse"), so that a known one cannot hide
# another from elsewhere. A signature listed by a "// signature:" line of
# test/fuzz-crashes/*.mlir is a known open finding and does not fail the run.
signature() {
  local report first frame
  report=$("$build/bin/gather-fuzz" "$1" 2>&1)
  first=$(grep -m1 -oE '[A-Za-z0-9_.+-]+:[0-9]+:[0-9]+: runtime error: [^:0-9]*[a-z]|ERROR: AddressSanitizer: [A-Za-z-]+|gather-fuzz: pass .*|LLVM ERROR: [A-Za-z ]*[a-z]|ERROR: libFuzzer: [a-z -]+' <<<"$report" |
    sed -E 's/ +$//' || true)
  if [[ $first == "LLVM ERROR:"* ]]; then
    frame=$(grep -oE '^ +#[0-9]+ 0x[0-9a-f]+ in [^ (]+' <<<"$report" |
      sed -E 's/.* in //' |
      grep -vE '^(llvm::|fuzzer::|__|abort|raise|gsignal|LLVMFuzzer)' |
      head -1 || true)
    [[ -n $frame ]] && first="$first in $frame"
  fi
  echo "$first"
}
known=$(sed -n 's|^// signature: ||p' "$root"/test/fuzz-crashes/*.mlir 2>/dev/null || true)
unknown=0
while IFS= read -r file; do
  [[ -n $file ]] || continue
  sig=$(signature "$file")
  if [[ -n $sig ]] && grep -qxF -- "$sig" <<<"$known"; then
    echo "  known:   $(basename "$file"): $sig"
  else
    echo "  NEW:     $(basename "$file"): ${sig:-no sanitizer report}"
    unknown=$((unknown + 1))
  fi
done < <(find "$out/crashes" -name 'crash-*' -newer "$out/.start" 2>/dev/null)

# In fork mode libFuzzer may exit with a crashing job's status even with
# -ignore_crashes: a non-zero status fails the run only when no crash
# explains it (a build or start-up failure).
if ((status != 0 && crashes == 0)); then
  echo "gather-fuzz: libFuzzer exited with status $status" >&2
  tail -20 "$log" >&2
  exit 1
fi
if ((crashes > 0 && unknown > 0)); then
  echo "gather-fuzz: $unknown crash(es) not in test/fuzz-crashes/"
  exit 1
fi
if ((crashes > 0)); then
  echo "gather-fuzz: every crash is a known open finding (test/fuzz-crashes/)"
fi
