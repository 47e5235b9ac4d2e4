// RUN: gather-opt %s --convert-gather-to-loops --canonicalize --cse --split-input-file | FileCheck %s

/// Each tuple component is read, normalized against its own dimension and
/// validated; the slice after the tuple moves as vectors; fill combines the
/// components' validity.
// CHECK-LABEL: func.func @gather_nd_batch_dims_1_fill
// CHECK: affine.for %[[B:.*]] = 0 to 2 {
// CHECK:   affine.for %[[T:.*]] = 0 to 5 {
// CHECK:     affine.load %{{.*}}[%[[B]], %[[T]], 0]
// CHECK:     affine.load %{{.*}}[%[[B]], %[[T]], 1]
// CHECK:     %[[V0:.*]] = arith.cmpi ult, %{{.*}}, %c3_i64
// CHECK:     %[[V1:.*]] = arith.cmpi ult, %{{.*}}, %c4_i64
// CHECK:     %[[VALID:.*]] = arith.andi %[[V0]], %[[V1]]
// CHECK:     scf.if %[[VALID]] {
// CHECK:       vector.load %{{.*}} : memref<2x3x4x8xf32>, vector<8xf32>
// CHECK:     } else {
func.func @gather_nd_batch_dims_1_fill(%d: tensor<2x3x4x8xf32>, %i: tensor<2x5x2xi32>) -> tensor<2x5x8xf32> {
  %0 = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<2x3x4x8xf32>, tensor<2x5x2xi32>) -> tensor<2x5x8xf32>
  return %0 : tensor<2x5x8xf32>
}

// -----

/// check mode validates each component against its own dimension and
/// reports that dimension's number.
// CHECK-LABEL: func.func @gather_nd_check
// CHECK-DAG: %[[D1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[D2:.*]] = arith.constant 2 : i64
// CHECK: affine.for
// CHECK:   scf.if
// CHECK:     memref.store %[[D1]]
// CHECK:   scf.if
// CHECK:     memref.store %[[D2]]
// CHECK: func.call @gather_mlir_index_error
func.func @gather_nd_check(%d: tensor<2x3x4xf32>, %i: tensor<5x2xi64>) -> tensor<5x4xf32> {
  %0 = gather.gather_nd %d[%i] {batch_dims = 0 : i64} : (tensor<2x3x4xf32>, tensor<5x2xi64>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

/// check mode scans contiguous tuples a vector at a time: the tuples' two
/// dimensions read as one row, each lane tested against its component's
/// size (the sizes repeat along the vector, whose lanes are a multiple of
/// the tuple: 16 for pairs of i64, 30 for triples of i32); a vector with a
/// bad index is scanned again a tuple at a time from its first tuple.
// CHECK-LABEL: func.func @gather_nd_check_vector_scan
// CHECK: %[[ROW:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<?x2xi64> into memref<?xi64>
// CHECK: %[[T0:.*]] = arith.minsi %{{.*}}, %c4611686018427387904_i64
// CHECK: %[[T1:.*]] = arith.minsi %{{.*}}, %c4611686018427387904_i64
// CHECK: %[[T:.*]] = vector.from_elements %[[T0]], %[[T1]], %[[T0]], %[[T1]], {{.*}} : vector<16xi64>
// CHECK: affine.for %[[J:.*]] = 0 to
// CHECK:   %[[V:.*]] = vector.load %[[ROW]][%[[J]]] : memref<?xi64>, vector<16xi64>
// CHECK:   arith.addi %[[V]], %[[T]] : vector<16xi64>
// CHECK:   vector.reduction <or>
// CHECK:   scf.if
// CHECK:     arith.divui %[[J]], %c2
// CHECK:     affine.for %{{.*}} = 0 to 8 {
// CHECK: vector.maskedload %[[ROW]]
// CHECK: func.call @gather_mlir_index_error
// CHECK-LABEL: func.func @gather_nd_check_vector_scan_triples
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : memref<?x?x3xi32> into memref<?x?xi32>
// CHECK: vector.load %{{.*}} : memref<?x?xi32>, vector<30xi32>
func.func @gather_nd_check_vector_scan(%d: tensor<?x?x?xf32>, %i: tensor<?x2xi64>) -> tensor<?x?xf32> {
  %0 = gather.gather_nd %d[%i] : (tensor<?x?x?xf32>, tensor<?x2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @gather_nd_check_vector_scan_triples(%d: tensor<?x?x?x?xf32>, %i: tensor<?x?x3xi32>) -> tensor<?x?x?xf32> {
  %0 = gather.gather_nd %d[%i] : (tensor<?x?x?x?xf32>, tensor<?x?x3xi32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
