// RUN: gather-opt %s --gather-to-llvm | FileCheck %s
//
// A gather-fuzz finding, fixed: %0 stays unranked here (its first gather
// reads an empty axis, so shape inference does not refine it), and the
// gather lowered before %1 replaced it with a rank dispatch, an
// scf.index_switch whose every case yields a rank-2 result. %1's dispatch
// did not see through the switch and made a case for every rank; after
// bufferization the canonicalizer folded memref.cast 6x4 -> * -> ?x?x? of an
// unreachable case into one invalid cast. A dispatch's rank is now the one
// rank all its cases yield (its error default yields an empty result of that
// rank too), so %1 has no case at all (axis 2 needs rank 3): a run-time rank
// error.
// CHECK-LABEL: llvm.func @through_an_earlier_dispatch
// CHECK: llvm.call @gather_mlir_shape_error
func.func @through_an_earlier_dispatch(%d: tensor<0x4xf32>, %i: tensor<6xi32>, %j: tensor<2x2xi64>) -> tensor<*xf32> {
  %u = tensor.cast %d : tensor<0x4xf32> to tensor<*xf32>
  %0 = gather.gather %u[%i] : (tensor<*xf32>, tensor<6xi32>) -> tensor<*xf32>
  %1 = gather.gather %0[%j] {axis = 2 : i64, mode = #gather<mode clamp>} : (tensor<*xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  %2 = arith.addf %1, %1 : tensor<*xf32>
  return %0 : tensor<*xf32>
}
