// RUN: gather-opt %s --convert-gather-to-loops --split-input-file | FileCheck %s

/// Contiguous trailing slices collapse into one row only when the collapsed
/// type is valid: the IR after the pass verifies in every case.

// CHECK-LABEL: func.func @collapses
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<4x3x2xf32> into memref<4x6xf32>
func.func @collapses(%d: tensor<4x3x2xf32>, %i: tensor<2xi64>) -> tensor<2x3x2xf32> {
  %r = gather.gather %d[%i] : (tensor<4x3x2xf32>, tensor<2xi64>) -> tensor<2x3x2xf32>
  return %r : tensor<2x3x2xf32>
}

// -----

/// A 0 beside a ? has no collapsed size (was an invalid collapse_shape).
// CHECK-LABEL: func.func @dynamic_and_empty
// CHECK-NOT: memref.collapse_shape
// CHECK: return
func.func @dynamic_and_empty(%d: tensor<4x?x0xf32>, %i: tensor<2xi64>) -> tensor<2x?x0xf32> {
  %r = gather.gather %d[%i] : (tensor<4x?x0xf32>, tensor<2xi64>) -> tensor<2x?x0xf32>
  return %r : tensor<2x?x0xf32>
}

// -----

/// Static sizes whose product overflows int64 stay uncollapsed (was a
/// collapsed type with a negative or wrapped size).
// CHECK-LABEL: func.func @product_overflows
// CHECK-NOT: memref.collapse_shape
// CHECK: return
func.func @product_overflows(%d: tensor<2x4611686018427387904x4xi8>, %i: tensor<1xi64>) -> tensor<1x4611686018427387904x4xi8> {
  %r = gather.gather %d[%i] : (tensor<2x4611686018427387904x4xi8>, tensor<1xi64>) -> tensor<1x4611686018427387904x4xi8>
  return %r : tensor<1x4611686018427387904x4xi8>
}
