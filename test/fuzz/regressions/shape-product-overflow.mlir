// RUN: gather-opt %s --canonicalize -o /dev/null
// RUN: gather-opt %s --gather-shape-inference -o /dev/null
// RUN: gather-opt %s --gather-to-llvm -o /dev/null
//
// A gather-fuzz finding, fixed (UBSan): GatherShapes.cpp staticProduct multiplies static
// dims in int64_t without an overflow check; two dims of 2^32 overflow it while
// the verifier runs (at parse time). Reproduce with a sanitizer build:
// Also crashes gather-fuzz (build-fuzz/bin/gather-fuzz THIS_FILE).
func.func @f(%d: tensor<2xf32>, %i: tensor<4294967296x4294967296xi64>) {
  %0 = gather.gather %d[%i] : (tensor<2xf32>, tensor<4294967296x4294967296xi64>) -> tensor<4294967296x4294967296xf32>
  return
}
