#!/usr/bin/env bash
#===- scripts/test.sh - Set up, build and run the whole test suite --------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
cmake --build "$root/build" --target check-gather
