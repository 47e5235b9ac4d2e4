#!/bin/sh
# Interestingness test of reduce.mlir: a candidate module is interesting
# (exit 1, mlir-reduce's convention) while it still has a gather.gather_nd.
grep -q 'gather.gather_nd' "$1" && exit 1
exit 0
