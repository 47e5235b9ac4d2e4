// RUN: gather-opt %s --pass-pipeline="builtin.module(func.func(gather-flatten-linalg))" --split-input-file | FileCheck %s

/// A copy of contiguous buffers: one flat copy, however short the
/// innermost dim.
// CHECK-LABEL: func.func @copy
// CHECK-DAG: %[[A:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2]] : memref<?x?x2xf32> into memref<?xf32>
// CHECK-DAG: %[[O:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2]] : memref<?x?x2xf32> into memref<?xf32>
// CHECK: linalg.copy ins(%[[A]] : memref<?xf32>) outs(%[[O]] : memref<?xf32>)
// CHECK-NOT: linalg.copy
func.func @copy(%a: memref<?x?x2xf32>, %o: memref<?x?x2xf32>) {
  linalg.copy ins(%a : memref<?x?x2xf32>) outs(%o : memref<?x?x2xf32>)
  return
}

// -----

/// Rows of a larger buffer (a dynamic outer stride): the innermost dims
/// that are contiguous become one, the outer stays.
// CHECK-LABEL: func.func @rows
// CHECK: memref.collapse_shape %arg0 {{\[}}[0], [1, 2]] : memref<?x?x2xf32, strided<[?, 2, 1], offset: ?>> into memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK: linalg.copy ins(%{{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>) outs(%{{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>)
func.func @rows(%a: memref<?x?x2xf32, strided<[?, 2, 1], offset: ?>>, %o: memref<?x?x2xf32, strided<[?, 2, 1], offset: ?>>) {
  linalg.copy ins(%a : memref<?x?x2xf32, strided<[?, 2, 1], offset: ?>>) outs(%o : memref<?x?x2xf32, strided<[?, 2, 1], offset: ?>>)
  return
}

// -----

/// An elementwise generic (dest widened to f32): one loop of 32.
// CHECK-LABEL: func.func @widen
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1]] : memref<4x8xf16> into memref<32xf16>
// CHECK: memref.collapse_shape %arg1 {{\[}}[0, 1]] : memref<4x8xf32> into memref<32xf32>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel"]
// CHECK: arith.extf
func.func @widen(%a: memref<4x8xf16>, %o: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf16>) outs(%o : memref<4x8xf32>) {
  ^bb0(%x: f16, %y: f32):
    %e = arith.extf %x : f16 to f32
    linalg.yield %e : f32
  }
  return
}

// -----

/// Left as they are: a column of a buffer (its elements apart), one
/// operand whose rows are apart, a broadcast, a reduction, a 1-D copy, a
/// fill, and a copy on tensors.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: memref.collapse_shape
// CHECK-COUNT-2: linalg.copy ins({{.*}} : memref<?x?xf32, strided<[?, 2], offset: ?>>)
// CHECK: linalg.copy ins({{.*}} : memref<4x8xf32>) outs({{.*}} : memref<4x8xf32, strided<[16, 1]>>)
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: linalg.copy ins({{.*}} : memref<?xf32>)
// CHECK: linalg.fill
// CHECK: linalg.copy ins({{.*}} : tensor<4x8xf32>)
func.func @kept(%c: memref<?x?xf32, strided<[?, 2], offset: ?>>, %d: memref<?x?xf32, strided<[?, 2], offset: ?>>, %m: memref<4x8xf32>, %p: memref<4x8xf32, strided<[16, 1]>>, %v: memref<8xf32>, %r: memref<4xf32>, %a: memref<?xf32>, %b: memref<?xf32>, %t: tensor<4x8xf32>) -> tensor<4x8xf32> {
  linalg.copy ins(%c : memref<?x?xf32, strided<[?, 2], offset: ?>>) outs(%d : memref<?x?xf32, strided<[?, 2], offset: ?>>)
  linalg.copy ins(%d : memref<?x?xf32, strided<[?, 2], offset: ?>>) outs(%c : memref<?x?xf32, strided<[?, 2], offset: ?>>)
  linalg.copy ins(%m : memref<4x8xf32>) outs(%p : memref<4x8xf32, strided<[16, 1]>>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%v : memref<8xf32>) outs(%m : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%m : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.copy ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%m : memref<4x8xf32>)
  %e = tensor.empty() : tensor<4x8xf32>
  %t2 = linalg.copy ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t2 : tensor<4x8xf32>
}
