// RUN: gather-opt %s --gather-to-llvm="vectorize=false" | FileCheck %s
//
// A gather-fuzz finding, fixed: an unranked operand whose rank a tensor.cast
// chain states (here %0, rank 2, cast to tensor<*xf32> by shape inference)
// got a switch case for every rank; after bufferization the canonicalizer
// folded memref.cast 6x4 -> * -> ?x?x? of the unreachable rank-3 case into
// one invalid cast. The dispatch now takes the rank from the cast chain, so
// only cases of that rank exist (none here: axis 2 needs rank 3, so the
// gather is the run-time rank error).
// CHECK-LABEL: llvm.func @chain_through_erasing_casts
// CHECK: llvm.call @gather_mlir_shape_error
func.func @chain_through_erasing_casts(%d: tensor<10x4xf32>, %i: tensor<6xi32>, %j: tensor<3x2xi64>) -> tensor<*xf32> {
  %u = tensor.cast %d : tensor<10x4xf32> to tensor<*xf32>
  %0 = gather.gather %u[%i] : (tensor<*xf32>, tensor<6xi32>) -> tensor<*xf32>
  %1 = gather.gather %0[%j] {axis = 2 : i64, mode = #gather<mode clamp>} : (tensor<*xf32>, tensor<3x2xi64>) -> tensor<*xf32>
  %2 = arith.addf %1, %1 : tensor<*xf32>
  return %0 : tensor<*xf32>
}
