// RUN: gather-opt %s --convert-gather-to-loops | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops="target-cpu=sapphirerapids" | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops="target-cpu=znver4" | FileCheck %s --check-prefix=ZEN
// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=vector" | FileCheck %s --check-prefix=VECTOR
// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=scalar" | FileCheck %s --check-prefix=SCALAR
// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=element" | FileCheck %s --check-prefix=ELEMENT
// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=auto-scalar target-cpu=sapphirerapids" | FileCheck %s --check-prefix=AUTO-SCALAR
// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=auto-scalar target-cpu=znver5" | FileCheck %s --check-prefix=ZEN
// RUN: gather-opt %s --convert-gather-to-loops="streaming-min-bytes=0" | FileCheck %s --check-prefix=STREAM
// RUN: gather-opt %s --convert-gather-to-loops="streaming-min-bytes=0 gather-loads=vector" | FileCheck %s --check-prefix=STREAM-VECTOR

/// `gather-loads=auto` reads rows gathered from a static data axis of 128 KiB
/// or more one element an iteration when they read at most one element in
/// 512 of it, on any CPU but AMD Zen: 32768 f32 do, 32767 f32 and 16383 f64
/// do not (vector gathers), nor do rows of 65 from 32768 f32. Each element's
/// index is read, normalized and clamped (unchecked and check read nothing
/// outside the row whatever the index) and its value loaded and stored as
/// scalars. AMD Zen reads every row with one scalar load per lane, long
/// axes too. An explicit choice is kept; `auto-scalar` is auto with scalar
/// loads for the other axes.
// CHECK-LABEL: func.func @long_axis
// CHECK-NOT: vector.
// CHECK: affine.for %[[ROW:.*]] = 0 to
// CHECK-NOT: vector.
// CHECK: affine.for %[[COL:.*]] = 0 to
// CHECK-NEXT: %[[I:.*]] = affine.load %{{.*}}[%[[ROW]], %[[COL]]] : memref<4x50xi64>
// CHECK: %[[LOW:.*]] = arith.minsi
// CHECK: %[[SUB:.*]] = arith.maxsi %[[LOW]]
// CHECK: %[[AT:.*]] = arith.index_cast %[[SUB]] : i64 to index
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%[[ROW]], %[[AT]]] : memref<4x32768xf32>
// CHECK: affine.store %[[V]], %{{.*}}[%[[ROW]], %[[COL]]] : memref<4x50xf32>
// CHECK-NOT: vector.
// CHECK-LABEL: func.func @dense_rows
// CHECK: vector.gather
// CHECK-LABEL: func.func @shorter_axis
// CHECK: vector.gather
// CHECK-LABEL: func.func @long_f64_axis
// CHECK-NOT: vector.gather
// CHECK-NOT: vector.extract
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x16384xf64>
// CHECK-LABEL: func.func @shorter_f64_axis
// CHECK: vector.gather
// ZEN-LABEL: func.func @long_axis
// ZEN-NOT: vector.gather
// ZEN: vector.extract
// ZEN: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32768xf32>
// ZEN: vector.insert
// ZEN-LABEL: func.func @dense_rows
// ZEN-NOT: vector.gather
// ZEN: vector.extract
// ZEN-LABEL: func.func @shorter_axis
// ZEN-NOT: vector.gather
// ZEN: vector.extract
/// (17 indices: four vectors of scalar loads per lane and a tail of one
/// element an iteration. At most 16 shared by every row are resolved once
/// instead: shared-index-row.mlir.)
// ZEN-LABEL: func.func @long_f64_axis
// ZEN-NOT: vector.gather
// ZEN: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x16384xf64>
// ZEN: vector.insert %{{.*}} : f64 into vector<4xf64>
// ZEN: return
// AUTO-SCALAR-LABEL: func.func @long_axis
// AUTO-SCALAR-NOT: vector.
// AUTO-SCALAR-LABEL: func.func @dense_rows
// AUTO-SCALAR-NOT: vector.gather
// AUTO-SCALAR: vector.extract
// AUTO-SCALAR-LABEL: func.func @shorter_axis
// AUTO-SCALAR-NOT: vector.gather
// AUTO-SCALAR: vector.extract
// VECTOR-LABEL: func.func @long_axis
// VECTOR: vector.gather
// SCALAR-LABEL: func.func @long_axis
// SCALAR-NOT: vector.gather
// SCALAR: vector.extract
// SCALAR: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32768xf32>
// SCALAR: vector.insert
// ELEMENT-LABEL: func.func @shorter_axis
// ELEMENT-NOT: vector.
// ELEMENT: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32767xf32>
// ELEMENT-NOT: vector.
// ELEMENT-LABEL: func.func @long_f64_axis
/// Rows read one element an iteration store scalars: they never stream (no
/// non-temporal store, no fence), where vector rows of 256 bytes do.
// STREAM-LABEL: func.func @wide_rows
// STREAM-NOT: nontemporal
// STREAM-NOT: llvm.fence
// STREAM-LABEL: func.func @long_axis
// STREAM-VECTOR-LABEL: func.func @wide_rows
// STREAM-VECTOR: nontemporal = true
// STREAM-VECTOR: llvm.fence
// STREAM-VECTOR-LABEL: func.func @long_axis
func.func @wide_rows(%d: tensor<4x32768xf32>, %i: tensor<4x64xi64>) -> tensor<4x64xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<4x32768xf32>, tensor<4x64xi64>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
func.func @long_axis(%d: tensor<4x32768xf32>, %i: tensor<4x50xi64>) -> tensor<4x50xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<4x32768xf32>, tensor<4x50xi64>) -> tensor<4x50xf32>
  return %r : tensor<4x50xf32>
}
func.func @dense_rows(%d: tensor<4x32768xf32>, %i: tensor<4x65xi64>) -> tensor<4x65xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<4x32768xf32>, tensor<4x65xi64>) -> tensor<4x65xf32>
  return %r : tensor<4x65xf32>
}
func.func @shorter_axis(%d: tensor<4x32767xf32>, %i: tensor<4x50xi64>) -> tensor<4x50xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<4x32767xf32>, tensor<4x50xi64>) -> tensor<4x50xf32>
  return %r : tensor<4x50xf32>
}
func.func @long_f64_axis(%d: tensor<2x16384xf64>, %i: tensor<17xi32>) -> tensor<2x17xf64> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<2x16384xf64>, tensor<17xi32>) -> tensor<2x17xf64>
  return %r : tensor<2x17xf64>
}
func.func @shorter_f64_axis(%d: tensor<2x16383xf64>, %i: tensor<17xi32>) -> tensor<2x17xf64> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<2x16383xf64>, tensor<17xi32>) -> tensor<2x17xf64>
  return %r : tensor<2x17xf64>
}
