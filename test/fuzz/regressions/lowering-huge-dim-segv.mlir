// RUN: gather-opt %s --canonicalize -o /dev/null
// RUN: gather-opt %s --gather-shape-inference -o /dev/null
// RUN: gather-opt %s --gather-to-llvm -o /dev/null
//
// A gather-fuzz finding, fixed (--gather-to-llvm, unchecked mode): a dim of INT64_MAX (product past 2^63)
// makes the lowering SEGV inside libMLIR.so (uninstrumented, no symbols). Same family as
// lowering-huge-dims-expand-strided-metadata.mlir: shapes whose element count overflows int64.
func.func @gslics(%d: tensor<5x9223372036854775807x1x2xf32>, %i: tensor<1xi64>) -> tensor<1x9223372036854775807x1x2xf32> {  %0 = gather.gather %d[%i] {m = #gather<mode unchecked>} : (tensor<5x9223372036854775807x1x2xf32>, tensor<1xi64>) -> tensor<1x9223372036854775807x1x2xf32>
  return %0 : tensor<1x9223372036854775807x1x2xf32>
}
