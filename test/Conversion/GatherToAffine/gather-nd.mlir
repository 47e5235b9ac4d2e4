// RUN: gather-opt %s --convert-gather-to-affine --canonicalize --cse --split-input-file | FileCheck %s

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
