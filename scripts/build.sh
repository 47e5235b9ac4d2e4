#!/usr/bin/env bash
#===- scripts/build.sh - Install what is missing, configure, build --------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
# Configure with the preset every time (a few seconds): a build directory
# configured before the preset held the compiler and MLIR_DIR gets them too.
(cd "$root" && cmake --preset default > /dev/null)
cmake --build "$root/build"
