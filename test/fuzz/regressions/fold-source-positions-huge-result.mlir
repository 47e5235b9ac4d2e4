// RUN: gather-opt %s --canonicalize -o /dev/null
// RUN: gather-opt %s --gather-shape-inference -o /dev/null
// RUN: gather-opt %s --gather-to-llvm -o /dev/null
//
// A gather-fuzz finding, fixed (--canonicalize): GatherOp::fold (GatherFolding.cpp:62) calls
// computeSourcePositions (GatherIndexing.cpp:128), which sizes a SmallVector by the result's
// element count (2 x 2^31) before any size cap: LLVM ERROR "SmallVector unable to grow", abort.
func.func @slice_wrapped_run(%d: tensor<8x2147483648xf32>) -> tensor<2x2147483648xf32> {
  %i = arith.constant dense<[2147483648, 2147483648]> : tensor<2xi64>
  %0 = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<8x2147483648xf32>, tensor<2xi64>) -> tensor<2x2147483648xf32>
  return %0 : tensor<2x2147483648xf32>
}
