// RUN: gather-opt %s --convert-gather-to-linalg -split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg -split-input-file | %upstream_to_llvm -split-input-file | FileCheck %s --check-prefix=LLVM

/// The output compiles with stock mlir-opt and upstream passes alone.
// LLVM: llvm.func
// LLVM-NOT: {{(gather|linalg|tensor|scf|cf)\.}}

/// One linalg.generic over the result; index values widened to i64,
/// normalized, clamped; data read with tensor.extract at the clamped row.
// CHECK-LABEL: func @gather_clamp
//  CHECK-SAME: (%[[DATA:.*]]: tensor<5x4xf32>, %[[IDX:.*]]: tensor<3xi32>)
//   CHECK-DAG: %[[S:.*]] = arith.constant 5 : i64
//       CHECK: %[[INIT:.*]] = tensor.empty() : tensor<3x4xf32>
//       CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%[[INIT]] : tensor<3x4xf32>)
//       CHECK:   %[[P0:.*]] = linalg.index 0 : index
//       CHECK:   %[[P1:.*]] = linalg.index 1 : index
//       CHECK:   %[[RAW:.*]] = tensor.extract %[[IDX]][%[[P0]]] : tensor<3xi32>
//       CHECK:   %[[I:.*]] = arith.extsi %[[RAW]] : i32 to i64
//       CHECK:   %[[NEG:.*]] = arith.cmpi slt, %[[I]]
//       CHECK:   %[[SUM:.*]] = arith.addi %[[I]], %[[S]]
//       CHECK:   %[[N:.*]] = arith.select %[[NEG]], %[[SUM]], %[[I]]
//       CHECK:   %[[UP:.*]] = arith.subi %[[S]]
//       CHECK:   %[[MIN:.*]] = arith.minsi %[[N]], %[[UP]]
//       CHECK:   %[[MAX:.*]] = arith.maxsi %[[MIN]]
//       CHECK:   %[[ROW:.*]] = arith.index_cast %[[MAX]] : i64 to index
//       CHECK:   %[[V:.*]] = tensor.extract %[[DATA]][%[[ROW]], %[[P1]]] : tensor<5x4xf32>
//       CHECK:   linalg.yield %[[V]] : f32
//   CHECK-NOT: gather.
func.func @gather_clamp(%d: tensor<5x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

/// check: a generic over the indices asserts each value and yields it; the
/// gather reads the checked indices, clamped as well (a client that drops
/// cf.assert, as IREE does in its dispatches, still reads in bounds).
// CHECK-LABEL: func @gather_check
//  CHECK-SAME: (%[[DATA:.*]]: tensor<5xf32>, %[[IDX:.*]]: tensor<3xindex>)
//       CHECK: %[[CHECKED:.*]] = linalg.generic {{.*}} ins(%[[IDX]] : tensor<3xindex>)
//       CHECK: ^bb0(%[[IN:.*]]: index,
//       CHECK:   %[[I:.*]] = arith.index_cast %[[IN]] : index to i64
//       CHECK:   %[[OK:.*]] = arith.cmpi ult
//       CHECK:   cf.assert %[[OK]], "gather.gather: index out of range [-5, 4] for data dimension 0 of size 5"
//       CHECK:   linalg.yield %[[IN]] : index
//       CHECK: linalg.generic
//       CHECK:   tensor.extract %[[CHECKED]]
//       CHECK:   arith.minsi
//       CHECK:   arith.maxsi
//   CHECK-NOT:   scf.if
//       CHECK:   tensor.extract %[[DATA]]
func.func @gather_check(%d: tensor<5xf32>, %i: tensor<3xindex>) -> tensor<3xf32> {
  %r = gather.gather %d[%i] : (tensor<5xf32>, tensor<3xindex>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

/// check along a dim that may be empty: the read is guarded (a clamped
/// subscript would still be out of bounds of an empty dim).
// CHECK-LABEL: func @gather_check_dynamic
//       CHECK: cf.assert
//       CHECK: linalg.generic
//       CHECK:   %[[OK:.*]] = arith.cmpi ult
//       CHECK:   scf.if %[[OK]] -> (f32) {
//       CHECK:     tensor.extract
func.func @gather_check_dynamic(%d: tensor<?xf32>, %i: tensor<3xi64>) -> tensor<3xf32> {
  %r = gather.gather %d[%i] : (tensor<?xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

/// fill: the read is guarded by scf.if; out-of-range elements are zero.
// CHECK-LABEL: func @gather_fill_complex
//       CHECK: linalg.generic
//       CHECK:   %[[OK:.*]] = arith.cmpi ult
//       CHECK:   %[[V:.*]] = scf.if %[[OK]] -> (complex<f32>) {
//       CHECK:     %[[X:.*]] = tensor.extract
//       CHECK:     scf.yield %[[X]]
//       CHECK:   } else {
//       CHECK:     %[[Z:.*]] = complex.constant [0.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
//       CHECK:     scf.yield %[[Z]]
//       CHECK:   linalg.yield %[[V]]
func.func @gather_fill_complex(%d: tensor<5xcomplex<f32>>, %i: tensor<2xi8>) -> tensor<2xcomplex<f32>> {
  %r = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<5xcomplex<f32>>, tensor<2xi8>) -> tensor<2xcomplex<f32>>
  return %r : tensor<2xcomplex<f32>>
}

// -----

/// wrap: Python modulo (the remainder made non-negative).
// CHECK-LABEL: func @gather_wrap
//       CHECK: linalg.generic
//       CHECK:   %[[DIV:.*]] = arith.maxsi
//       CHECK:   %[[REM:.*]] = arith.remsi %{{.*}}, %[[DIV]] : i64
//       CHECK:   %[[NEG:.*]] = arith.cmpi slt, %[[REM]]
//       CHECK:   %[[UP:.*]] = arith.addi %[[REM]], %[[DIV]]
//       CHECK:   arith.select %[[NEG]], %[[UP]], %[[REM]]
//   CHECK-NOT: cf.assert
func.func @gather_wrap(%d: tensor<5xi32>, %i: tensor<2xi64>) -> tensor<2xi32> {
  %r = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<5xi32>, tensor<2xi64>) -> tensor<2xi32>
  return %r : tensor<2xi32>
}

// -----

/// unchecked: normalization only; no assert, no guard.
// CHECK-LABEL: func @gather_unchecked
//   CHECK-NOT: cf.assert
//   CHECK-NOT: scf.if
//       CHECK: linalg.generic
//       CHECK:   arith.select
//       CHECK:   tensor.extract
//   CHECK-NOT: arith.minsi
func.func @gather_unchecked(%d: tensor<5xi32>, %i: tensor<2xi64>) -> tensor<2xi32> {
  %r = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<5xi32>, tensor<2xi64>) -> tensor<2xi32>
  return %r : tensor<2xi32>
}

// -----

/// axis 1, batch_dims 1: result dim 0 walks both batch dims, result dim 1
/// the indices' dim 1; data dim 1 is the resolved index.
// CHECK-LABEL: func @gather_axis1_batch_dims1
//  CHECK-SAME: (%[[DATA:.*]]: tensor<2x5xf32>, %[[IDX:.*]]: tensor<2x3xi32>)
//       CHECK: linalg.generic
//       CHECK:   %[[P0:.*]] = linalg.index 0
//       CHECK:   %[[P1:.*]] = linalg.index 1
//       CHECK:   tensor.extract %[[IDX]][%[[P0]], %[[P1]]]
//       CHECK:   %[[J:.*]] = arith.index_cast %{{.*}} : i64 to index
//       CHECK:   tensor.extract %[[DATA]][%[[P0]], %[[J]]]
func.func @gather_axis1_batch_dims1(%d: tensor<2x5xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

/// Dynamic batch dims are asserted equal before the gather (every mode but
/// unchecked); the result takes its sizes from the operands.
// CHECK-LABEL: func @gather_dynamic_batch
//       CHECK: %[[EQ:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
//       CHECK: cf.assert %[[EQ]], "gather.gather: batch dimension 0 has different sizes in data and indices"
//       CHECK: tensor.empty(%{{.*}}) : tensor<?x3xf32>
//       CHECK: linalg.generic
func.func @gather_dynamic_batch(%d: tensor<?x5xf32>, %i: tensor<?x3xi32>) -> tensor<?x3xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode clamp>} : (tensor<?x5xf32>, tensor<?x3xi32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func @gather_dynamic_batch_unchecked
//   CHECK-NOT: cf.assert
func.func @gather_dynamic_batch_unchecked(%d: tensor<?x5xf32>, %i: tensor<?x3xi32>) -> tensor<?x3xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode unchecked>} : (tensor<?x5xf32>, tensor<?x3xi32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// -----

/// clamp along a dynamic dim: assert it is not empty unless there are no
/// indices; the check message of a dynamic size names no number.
// CHECK-LABEL: func @gather_clamp_dynamic_axis
//       CHECK: cf.assert %{{.*}}, "gather.gather: an index selects along data dimension 0, which is empty (size 0)"
//       CHECK: linalg.generic
func.func @gather_clamp_dynamic_axis(%d: tensor<?xf32>, %i: tensor<?xi32>) -> tensor<?xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// CHECK-LABEL: func @gather_check_dynamic_axis
//       CHECK: cf.assert %{{.*}}, "gather.gather: index out of range [-size, size - 1] for data dimension 0 of dynamic size"
func.func @gather_check_dynamic_axis(%d: tensor<?xf32>, %i: tensor<?xi32>) -> tensor<?xf32> {
  %r = gather.gather %d[%i] : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

/// A result dim declared static where the operands leave it dynamic is
/// asserted to have that size.
// CHECK-LABEL: func @gather_static_result_dynamic_indices
//       CHECK: %[[N:.*]] = tensor.dim %{{.*}} : tensor<?xi32>
//       CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
//       CHECK: cf.assert %[[EQ]], "gather.gather: result dimension 0 has size 3, but the operands give another"
//       CHECK: tensor.empty() : tensor<3xf32>
func.func @gather_static_result_dynamic_indices(%d: tensor<5xf32>, %i: tensor<?xi32>) -> tensor<3xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<5xf32>, tensor<?xi32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
