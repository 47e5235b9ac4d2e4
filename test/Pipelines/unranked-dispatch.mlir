// RUN: gather-opt %s --gather-to-llvm="vectorize=false" --split-input-file | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm --split-input-file | FileCheck %s

// The run-time rank dispatch of unranked operands through the whole
// pipeline (its cases: test/Conversion/GatherToLoops/unranked.mlir).

/// A gather-fuzz finding: an unranked operand whose rank a tensor.cast
/// chain states (here %0, rank 2, cast to tensor<*xf32> by shape inference)
/// got a switch case for every rank; after bufferization the canonicalizer
/// folded memref.cast 6x4 -> * -> ?x?x? of the unreachable rank-3 case into
/// one invalid cast. The dispatch now takes the rank from the cast chain, so
/// only cases of that rank exist (none here: axis 2 needs rank 3, so the
/// gather is the run-time rank error).
// CHECK-LABEL: llvm.func @chain_through_erasing_casts
// CHECK: llvm.call @gather_mlir_shape_error
func.func @chain_through_erasing_casts(%d: tensor<10x4xf32>, %i: tensor<6xi32>, %j: tensor<3x2xi64>) -> tensor<*xf32> {
  %u = tensor.cast %d : tensor<10x4xf32> to tensor<*xf32>
  %0 = gather.gather %u[%i] : (tensor<*xf32>, tensor<6xi32>) -> tensor<*xf32>
  %1 = gather.gather %0[%j] {axis = 2 : i64, mode = #gather<mode clamp>} : (tensor<*xf32>, tensor<3x2xi64>) -> tensor<*xf32>
  %2 = arith.addf %1, %1 : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

/// A gather-fuzz finding: %0 stays unranked here (its first gather
/// reads an empty axis, so shape inference does not refine it), and the
/// gather lowered before %1 replaced it with a rank dispatch, an
/// scf.index_switch whose every case yields a rank-2 result. %1's dispatch
/// did not see through the switch and made a case for every rank; after
/// bufferization the canonicalizer folded memref.cast 6x4 -> * -> ?x?x? of an
/// unreachable case into one invalid cast. A dispatch's rank is now the one
/// rank all its cases yield (its error default yields an empty result of that
/// rank too), so %1 has no case at all (axis 2 needs rank 3): a run-time rank
/// error.
// CHECK-LABEL: llvm.func @through_an_earlier_dispatch
// CHECK: llvm.call @gather_mlir_shape_error
func.func @through_an_earlier_dispatch(%d: tensor<0x4xf32>, %i: tensor<6xi32>, %j: tensor<2x2xi64>) -> tensor<*xf32> {
  %u = tensor.cast %d : tensor<0x4xf32> to tensor<*xf32>
  %0 = gather.gather %u[%i] : (tensor<*xf32>, tensor<6xi32>) -> tensor<*xf32>
  %1 = gather.gather %0[%j] {axis = 2 : i64, mode = #gather<mode clamp>} : (tensor<*xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  %2 = arith.addf %1, %1 : tensor<*xf32>
  return %0 : tensor<*xf32>
}
