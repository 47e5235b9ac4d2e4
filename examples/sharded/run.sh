#!/usr/bin/env bash
#===- examples/sharded/run.sh - Sharded embeddings for any N ---------------===#
#
# Usage: examples/sharded/run.sh [N ...]            (default: 1 2 4)
#
# Builds embedding.mlir (the unsharded module) and, for each N,
# embedding-sharded.mlir with a grid of N (gather-shard-partition,
# gather-to-llvm, mlir-translate, clang), links each with host.cpp, runs the
# unsharded program on one process and the sharded one under
# `mpirun.mpich -np N`, and compares both results byte for byte. Each
# process allocates only its rows of the table. Prints each run's memory and
# times.
#
# Sizes (environment): ROWS (4194304) x DIM (64) f32 is the table (1 GiB);
# LOOKUPS (65536) ids for the lookup; BAGS (8192) bags of BAG_IDS (262144)
# ids in all; REPEAT (5) timed calls. N must divide ROWS. GATHER_OPT (the
# build's, else the one on PATH) and WORK (a new temporary directory) may
# be set too.
#
#===------------------------------------------------------------------------===#
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ROWS=${ROWS:-4194304} DIM=${DIM:-64} LOOKUPS=${LOOKUPS:-65536}
BAGS=${BAGS:-8192} BAG_IDS=${BAG_IDS:-262144} REPEAT=${REPEAT:-5}
if [[ -z ${GATHER_OPT:-} ]]; then
  GATHER_OPT="$here/../../build/bin/gather-opt"
  [[ -x $GATHER_OPT ]] || GATHER_OPT=$(command -v gather-opt)
fi
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
LLVM=/usr/lib/llvm-22/bin
counts=("$@")
((${#counts[@]})) || counts=(1 2 4)

# build SOURCE N PARTITION NAME: the kernels of SOURCE for a grid of N,
# linked with the host into $WORK/NAME.
build() {
  local source=$1 n=$2 partition=$3 name=$4
  sed -e "s/@ROWS@/$ROWS/g" -e "s/@DIM@/$DIM/g" -e "s/@LOOKUPS@/$LOOKUPS/g" \
      -e "s/@BAGS@/$BAGS/g" -e "s/@BAG_IDS@/$BAG_IDS/g" -e "s/@N@/$n/g" \
      "$here/$source" |
    "$GATHER_OPT" $partition --gather-to-llvm=c-interface=true |
    "$LLVM/mlir-translate" --mlir-to-llvmir -o "$WORK/$name.ll"
  "$LLVM/clang" -O2 -Wno-override-module -c "$WORK/$name.ll" -o "$WORK/$name.o"
  "$LLVM/clang++" -O2 -std=c++17 -DROWS="${ROWS}LL" -DDIM="${DIM}LL" \
    -DLOOKUPS="${LOOKUPS}LL" -DBAG_IDS="${BAG_IDS}LL" -DBAGS="${BAGS}LL" \
    -DREPEAT="$REPEAT" -I/usr/lib/llvm-22/include \
    -I/usr/include/x86_64-linux-gnu/mpich "$here/host.cpp" "$WORK/$name.o" \
    -lmpich -o "$WORK/$name"
}

build embedding.mlir 1 "" unsharded
mkdir -p "$WORK/out-unsharded"
echo "The unsharded module:"
mpirun.mpich -np 1 "$WORK/unsharded" "$WORK/out-unsharded"

status=0
for n in "${counts[@]}"; do
  if ((ROWS % n)); then
    echo "N=$n does not divide ROWS=$ROWS" >&2
    exit 2
  fi
  build embedding-sharded.mlir "$n" --gather-shard-partition "sharded-$n"
  mkdir -p "$WORK/out-$n"
  echo "The module sharded over $n processes:"
  mpirun.mpich -np "$n" "$WORK/sharded-$n" "$WORK/out-$n"
  for result in lookup bag; do
    if cmp -s "$WORK/out-unsharded/$result.f32" "$WORK/out-$n/$result.f32"; then
      echo "  $result: equal to the unsharded module"
    else
      echo "  $result: DIFFERS from the unsharded module" >&2
      status=1
    fi
  done
done
exit $status
