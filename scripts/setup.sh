#!/usr/bin/env bash
#===- scripts/setup.sh - Install every apt package GatherMLIR needs -------===#
#
# Idempotent: installs only what is missing, and returns at once when nothing
# is. Needs root (or sudo) only when something has to be installed.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

PACKAGES=(
  # Toolchain and LLVM/MLIR 22.
  cmake ninja-build ccache clang-22 lld-22 llvm-22-dev llvm-22-tools
  clang-format-22
  libmlir-22-dev mlir-22-tools libomp-22-dev
  # Sanitizer and libFuzzer runtimes (GATHER_ENABLE_SANITIZERS, scripts/fuzz.sh).
  libclang-rt-22-dev
  # Python package and its tests (Debian's interpreter, /usr/bin/python3).
  python3 python3-dev pybind11-dev python3-numpy python3-pytest
  python3-hypothesis python3-onnx python3-torch
  # The stack of a process a test finds hung (test_compiler's fork test).
  gdb
  # The benchmark's peers and chart (bench/).
  python3-numba python3-matplotlib
  # Sharded gathers under mpirun: MPICH, the ABI whose LLVM 22 lowering of
  # the mpi dialect works (docs/Sharding.md); its headers for C++ hosts.
  mpich libmpich-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) != 0 ]]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
