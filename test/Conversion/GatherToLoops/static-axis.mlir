// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=element" | FileCheck %s

/// check-mode gathers clamp their subscripts once the indices are valid (a
/// no-op on them), so that along a gathered axis of static size the
/// subscripts fold: along one position, LLVM reads data at 0, a copy. Rows
/// gathered along an axis of unknown size clamp too: a subscript never
/// leaves a non-empty axis (here one element an iteration, in the column
/// blocks' nest, which comes first).
// CHECK-LABEL: func.func @static_axis
// CHECK: %[[SUB:.*]] = arith.maxsi %{{.*}}, %c0_i64{{.*}} : i64
// CHECK-NEXT: %[[AT:.*]] = arith.index_cast %[[SUB]] : i64 to index
// CHECK: memref.load %{{.*}}[%[[AT]], %{{.*}}, %{{.*}}] : memref<1x?x11xf64>
// CHECK-LABEL: func.func @dynamic_axis
// CHECK: arith.ceildivui
// CHECK: %[[N:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK: %[[HIGH:.*]] = arith.minsi %[[N]]
// CHECK: %[[SUB:.*]] = arith.maxsi %[[HIGH]], %c0_i64{{.*}} : i64
// CHECK-NEXT: %[[AT:.*]] = arith.index_cast %[[SUB]] : i64 to index
// CHECK: memref.load %{{.*}}[%[[AT]], %{{.*}}, %{{.*}}] : memref<?x?x11xf64>
func.func @static_axis(%d: tensor<1x?x11xf64>, %i: tensor<1x?x11xi32>) -> tensor<1x?x11xf64> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<1x?x11xf64>, tensor<1x?x11xi32>) -> tensor<1x?x11xf64>
  return %r : tensor<1x?x11xf64>
}

func.func @dynamic_axis(%d: tensor<?x?x11xf64>, %i: tensor<?x?x11xi32>) -> tensor<?x?x11xf64> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<?x?x11xf64>, tensor<?x?x11xi32>) -> tensor<?x?x11xf64>
  return %r : tensor<?x?x11xf64>
}
