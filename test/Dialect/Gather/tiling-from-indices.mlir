// RUN: gather-test-opt %s --test-gather-tile-from-indices --split-input-file -verify-diagnostics | FileCheck %s

// The operand-tile methods of the gather ops' TilingInterface: the tile of
// the iteration domain that a tile of the indices computes, and that tiled
// gather (a gather fused as the consumer of a tiled producer of its ids).

/// A tile of gather's indices fixes the result dims that come from them;
/// the data dims around the axis are computed whole.
// CHECK-LABEL: func.func @gather_from_ids_tile
// CHECK: %[[D:.*]] = tensor.extract_slice %arg0[0, 0, 0] [4, 10, 6]
// CHECK: %[[I:.*]] = tensor.extract_slice %arg1[1, 2] [2, 3]
// CHECK: gather.gather %[[D]][%[[I]]] {{.*}} -> tensor<4x2x3x6xf32>
func.func @gather_from_ids_tile(%d: tensor<4x10x6xf32>, %i: tensor<3x5xi64>) -> tensor<4x3x5x6xf32> {
  // expected-remark @below {{iteration domain tile: [0, 1, 2, 0] sizes [4, 2, 3, 6]}}
  %r = gather.gather %d[%i] {axis = 1 : i64, test.indices_tile = {offsets = array<i64: 1, 2>, sizes = array<i64: 2, 3>}} : (tensor<4x10x6xf32>, tensor<3x5xi64>) -> tensor<4x3x5x6xf32>
  return %r : tensor<4x3x5x6xf32>
}

// -----

/// gather_elements: the tile of the indices is the tile of the result.
// CHECK-LABEL: func.func @gather_elements_from_ids_tile
// CHECK: %[[D:.*]] = tensor.extract_slice %arg0[2, 0] [3, 9]
// CHECK: %[[I:.*]] = tensor.extract_slice %arg1[2, 0] [3, 4]
// CHECK: gather.gather_elements %[[D]][%[[I]]] {{.*}} -> tensor<3x4xf32>
func.func @gather_elements_from_ids_tile(%d: tensor<8x9xf32>, %i: tensor<6x4xi32>) -> tensor<6x4xf32> {
  // expected-remark @below {{iteration domain tile: [2, 0] sizes [3, 4]}}
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>, test.indices_tile = {offsets = array<i64: 2, 0>, sizes = array<i64: 3, 4>}} : (tensor<8x9xf32>, tensor<6x4xi32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

/// gather_nd: whole tuples.
// CHECK-LABEL: func.func @gather_nd_from_ids_tile
// CHECK: %[[I:.*]] = tensor.extract_slice %arg1[4, 0] [4, 2]
// CHECK: gather.gather_nd %{{.*}}[%[[I]]] {{.*}} -> tensor<4x7xf32>
func.func @gather_nd_from_ids_tile(%d: tensor<5x6x7xf32>, %i: tensor<8x2xi32>) -> tensor<8x7xf32> {
  // expected-remark @below {{iteration domain tile: [4, 0] sizes [4, 7]}}
  %r = gather.gather_nd %d[%i] {test.indices_tile = {offsets = array<i64: 4, 0>, sizes = array<i64: 4, 2>}} : (tensor<5x6x7xf32>, tensor<8x2xi32>) -> tensor<8x7xf32>
  return %r : tensor<8x7xf32>
}

// -----

/// Part of each tuple is no tile of the result.
// CHECK-LABEL: func.func @gather_nd_partial_tuple
// CHECK-NOT: extract_slice
func.func @gather_nd_partial_tuple(%d: tensor<5x6x7xf32>, %i: tensor<8x2xi32>) -> tensor<8x7xf32> {
  // expected-remark @below {{no tile of the iteration domain reads exactly this tile of the indices}}
  %r = gather.gather_nd %d[%i] {test.indices_tile = {offsets = array<i64: 0, 1>, sizes = array<i64: 8, 1>}} : (tensor<5x6x7xf32>, tensor<8x2xi32>) -> tensor<8x7xf32>
  return %r : tensor<8x7xf32>
}
