#!/usr/bin/env bash
#===- scripts/build.sh - Install what is missing, configure, build --------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
if [[ ! -f "$root/build/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$root/build"
