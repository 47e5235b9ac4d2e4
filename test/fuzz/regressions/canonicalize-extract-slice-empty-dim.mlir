// RUN: gather-opt %s --canonicalize -o /dev/null
// RUN: gather-opt %s --gather-shape-inference -o /dev/null
// RUN: gather-opt %s --gather-to-llvm -o /dev/null
//
// A gather-fuzz finding, fixed (--canonicalize): with constant contiguous indices and a data dim of size 0,
// GatherToExtractSlice (GatherFolding.cpp) builds a tensor.extract_slice that the verifier
// rejects ("offset 1 is out-of-bounds: 0 >= 0"): canonicalize succeeds with invalid IR.
func.func @c(%d: tensor<8x0xf32>)-> tensor<2x0xf32> {
  %i= arith.constant dense<[2, 3]> : tensor<2xi64>  %0 = gather.gather%d[%i] :(tensor<8x0xf32>, tensor<2xi64>) -> tensor<2x0xf32> return%0 : tensor<2x0xf32>
}
