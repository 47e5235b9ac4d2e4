// RUN: gather-opt %s --convert-gather-to-loops | FileCheck %s

/// A gather along an axis after the first at a vector of at most 16
/// indices, static in number, resolves their subscripts once, before the
/// rows; each row of the result copies the elements at them (fill: zeros
/// where an index is out of range). Check and unchecked clamp the subscripts they resolve,
/// as every row gather does.
// CHECK-LABEL: func.func @fill
// CHECK: affine.load %{{.*}}[%c0{{.*}}] : memref<3xi64>
// CHECK: affine.load %{{.*}}[%c1{{.*}}] : memref<3xi64>
// CHECK: affine.load %{{.*}}[%c2{{.*}}] : memref<3xi64>
// CHECK: affine.for %[[ROW:.*]] = 0 to
// CHECK-NOT: memref<3xi64>
// CHECK: scf.if
// CHECK-NEXT: memref.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x8xf32>
// CHECK: } else {
// CHECK-NEXT: arith.constant 0.0
// CHECK-COUNT-2: scf.if
// CHECK-NOT: memref<3xi64>
// CHECK: return
func.func @fill(%d: tensor<?x8xf32>, %i: tensor<3xi64>) -> tensor<?x3xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<?x8xf32>, tensor<3xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

/// Along an axis before the last, the same: each row of data's leading
/// dims copies the slices at the shared indices.
// CHECK-LABEL: func.func @slices
// CHECK: affine.load %{{.*}}[%c0{{.*}}] : memref<2xi64>
// CHECK: affine.load %{{.*}}[%c1{{.*}}] : memref<2xi64>
// CHECK: affine.for
// CHECK-NOT: memref<2xi64>
// CHECK: return
func.func @slices(%d: tensor<?x19x?xf32>, %i: tensor<2xi64>) -> tensor<?x2x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x19x?xf32>, tensor<2xi64>) -> tensor<?x2x?xf32>
  return %r : tensor<?x2x?xf32>
}

/// A data axis of unknown size may be empty: the rows gather as before then
/// (only fill has results: zeros), behind a run-time test.
// CHECK-LABEL: func.func @dynamic_axis
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i64
// CHECK: scf.if %[[NONEMPTY]]
// CHECK: arith.minsi
// CHECK: affine.for
// CHECK: } else {
func.func @dynamic_axis(%d: tensor<?x?xf32>, %i: tensor<2xi32>) -> tensor<?x2xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

/// Not for 17 indices, indices of unknown number, a batch dim or a gather
/// from a vector (no rows to share them).
// CHECK-LABEL: func.func @many
// CHECK-NOT: affine.load %{{.*}}[%c16{{.*}}] : memref<17xi64>
// CHECK: return
// CHECK-LABEL: func.func @unknown
// CHECK-NOT: affine.load %{{.*}}[%c0{{.*}}] : memref<?xi64>
// CHECK: return
// CHECK-LABEL: func.func @batched
// CHECK-NOT: affine.load %{{.*}}[%c0{{.*}}, %c0{{.*}}] : memref<2x3xi64>
// CHECK: return
func.func @many(%d: tensor<?x8xf32>, %i: tensor<17xi64>) -> tensor<?x17xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x8xf32>, tensor<17xi64>) -> tensor<?x17xf32>
  return %r : tensor<?x17xf32>
}

func.func @unknown(%d: tensor<?x8xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x8xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @batched(%d: tensor<2x8xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x8xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
