#!/usr/bin/env bash
#===- scripts/demo.sh - Set up, build, and run a gather end to end --------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
example=${1:-$root/examples/seed_gather.mlir}
echo "== $example, verified and printed by gather-opt"
"$root/build/bin/gather-opt" "$example"
