// RUN: gather-opt %s --convert-gather-to-affine="parallel=true" --canonicalize --cse --split-input-file | FileCheck %s

/// The validation stays sequential (it records the first bad index); the
/// gather's outermost loop runs its iterations in parallel.
// CHECK-LABEL: func.func @gather_parallel_rows
// CHECK: affine.for
// CHECK:   arith.cmpi uge
// CHECK: func.call @gather_mlir_index_error
// CHECK: scf.if
// CHECK:   scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK:     {{memref.load|tensor.extract}} %{{.*}}[%[[I]]]
// CHECK:     affine.for
// CHECK:       vector.load
// CHECK-NOT: scf.parallel
func.func @gather_parallel_rows(%d: tensor<?x?xf32>, %i: tensor<?xi32>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @gather_elements_parallel
// CHECK: scf.parallel
// CHECK:   vector.gather
func.func @gather_elements_parallel(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
