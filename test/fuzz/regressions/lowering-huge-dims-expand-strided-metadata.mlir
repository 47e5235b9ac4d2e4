// RUN: gather-opt %s --canonicalize -o /dev/null
// RUN: gather-opt %s --gather-shape-inference -o /dev/null
// RUN: gather-opt %s --gather-to-llvm -o /dev/null
//
// A gather-fuzz finding, fixed (--gather-to-llvm): static dims whose product overflows int64 reach the
// memref lowering; upstream expand-strided-metadata then computes negative sizes
// ("expected sizes to be non-negative, but got -8589934592") and leaves invalid IR. Upstream
// pass, but our verifier/lowering could reject shapes whose element count overflows int64.
func.func @gather_collapses_contiguous_slices(%d: tensor<5x9223372036854775807x4294967296x2xf32>, %i: tensor<4294967296xi64>) -> tensor<4294967296x9223372036854775807x4294967296x2xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<5x9223372036854775807x4294967296x2xf32>, tensor<4294967296xi64>) -> tensor<4294967296x9223372036854775807x4294967296x2xf32>
  return %0 : tensor<4294967296x9223372036854775807x4294967296x2xf32>
}
