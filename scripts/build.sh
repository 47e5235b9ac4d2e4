#!/usr/bin/env bash
#===- scripts/build.sh - Install what is missing, configure, build --------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
if [[ ! -f "$root/build/build.ninja" ]]; then
  (cd "$root" && cmake --preset default)
fi
cmake --build "$root/build"
