#!/usr/bin/env bash
#===- scripts/demo.sh - Set up, build, lower a gather to LLVM IR and run it ===#
#
# Usage: bash scripts/demo.sh [file.mlir]   (default: examples/seed_gather.mlir)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"

llvm=/usr/lib/llvm-22
example=${1:-$root/examples/seed_gather.mlir}
out=$root/build/demo
mkdir -p "$out"
name=$(basename "$example" .mlir)

echo "== input: $example"
grep -E "gather\.gather" "$example" | sed 's/^ */   /'
echo "== gather-opt --gather-to-llvm, mlir-translate --mlir-to-llvmir -> $out/$name.ll"
"$root/build/bin/gather-opt" "$example" --gather-to-llvm -o "$out/$name.llvm.mlir"
"$llvm/bin/mlir-translate" --mlir-to-llvmir "$out/$name.llvm.mlir" -o "$out/$name.ll"
grep -c "" "$out/$name.ll" | xargs printf '   %s lines of LLVM IR\n'
echo "== mlir-runner"
"$llvm/bin/mlir-runner" "$out/$name.llvm.mlir" -e main -entry-point-result=void \
  -shared-libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so"
