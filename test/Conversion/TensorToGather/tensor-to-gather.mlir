// RUN: gather-opt %s --convert-tensor-to-gather -split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-tensor-to-gather="mode=fill" -split-input-file | FileCheck %s --check-prefix=FILL

/// Leading gather_dims need no transpose; the rank-reduced result is the
/// gather_nd's. Out-of-range coordinates get `check` by default.
// CHECK-LABEL: func @leading_dim_rank_reduced
//  CHECK-SAME: (%[[DATA:.*]]: tensor<4x5xf32>, %[[IDX:.*]]: tensor<3x1xindex>)
//   CHECK-NOT: linalg.transpose
//       CHECK: %[[R:.*]] = gather.gather_nd %[[DATA]][%[[IDX]]] : (tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<3x5xf32>
//       CHECK: return %[[R]]
// FILL-LABEL: func @leading_dim_rank_reduced
//       FILL: gather.gather_nd {{.*}} {mode = #gather<mode fill>}
func.func @leading_dim_rank_reduced(%data: tensor<4x5xf32>, %idx: tensor<3x1xindex>) -> tensor<3x5xf32> {
  %r = tensor.gather %data[%idx] gather_dims([0]) : (tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

/// A result that keeps the gathered dim as a unit dim: expand_shape.
// CHECK-LABEL: func @leading_dim_not_reduced
//       CHECK: %[[R:.*]] = gather.gather_nd %{{.*}} : (tensor<4x5xf32>, tensor<3x1xi32>) -> tensor<3x5xf32>
//       CHECK: %[[E:.*]] = tensor.expand_shape %[[R]] {{\[}}[0], [1, 2]] output_shape [3, 1, 5] : tensor<3x5xf32> into tensor<3x1x5xf32>
//       CHECK: return %[[E]]
func.func @leading_dim_not_reduced(%data: tensor<4x5xf32>, %idx: tensor<3x1xi32>) -> tensor<3x1x5xf32> {
  %r = tensor.gather %data[%idx] gather_dims([0]) : (tensor<4x5xf32>, tensor<3x1xi32>) -> tensor<3x1x5xf32>
  return %r : tensor<3x1x5xf32>
}

// -----

/// gather_dims = [1]: data is transposed so that dim 1 leads.
// CHECK-LABEL: func @inner_dim
//  CHECK-SAME: (%[[DATA:.*]]: tensor<4x5xf32>, %[[IDX:.*]]: tensor<3x1xi64>)
//       CHECK: %[[INIT:.*]] = tensor.empty() : tensor<5x4xf32>
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[DATA]] : tensor<4x5xf32>) outs(%[[INIT]] : tensor<5x4xf32>) permutation = [1, 0]
//       CHECK: %[[R:.*]] = gather.gather_nd %[[T]][%[[IDX]]] : (tensor<5x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
//       CHECK: return %[[R]]
func.func @inner_dim(%data: tensor<4x5xf32>, %idx: tensor<3x1xi64>) -> tensor<3x4xf32> {
  %r = tensor.gather %data[%idx] gather_dims([1]) : (tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

/// gather_dims = [0, 2] of rank 3, not rank-reduced: the unit dims join the
/// groups of their neighbours.
// CHECK-LABEL: func @two_dims_not_reduced
//       CHECK: %[[T:.*]] = linalg.transpose {{.*}} permutation = [0, 2, 1]
//       CHECK: %[[R:.*]] = gather.gather_nd %[[T]][%{{.*}}] : (tensor<4x6x5xf32>, tensor<2x3x2xindex>) -> tensor<2x3x5xf32>
//       CHECK: tensor.expand_shape %[[R]] {{\[}}[0], [1], [2, 3, 4]] output_shape [2, 3, 1, 5, 1] : tensor<2x3x5xf32> into tensor<2x3x1x5x1xf32>
func.func @two_dims_not_reduced(%data: tensor<4x5x6xf32>, %idx: tensor<2x3x2xindex>) -> tensor<2x3x1x5x1xf32> {
  %r = tensor.gather %data[%idx] gather_dims([0, 2]) : (tensor<4x5x6xf32>, tensor<2x3x2xindex>) -> tensor<2x3x1x5x1xf32>
  return %r : tensor<2x3x1x5x1xf32>
}

// -----

/// Every dim gathered, one coordinate tuple: a rank-0 gather_nd result
/// expanded to unit dims (empty reassociation).
// CHECK-LABEL: func @all_dims_single_tuple
//       CHECK: %[[R:.*]] = gather.gather_nd %{{.*}} : (tensor<4x5xf32>, tensor<2xi32>) -> tensor<f32>
//       CHECK: tensor.expand_shape %[[R]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @all_dims_single_tuple(%data: tensor<4x5xf32>, %idx: tensor<2xi32>) -> tensor<1x1xf32> {
  %r = tensor.gather %data[%idx] gather_dims([0, 1]) : (tensor<4x5xf32>, tensor<2xi32>) -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

// -----

/// Dynamic dims: the transpose's destination takes the source's sizes,
/// and the expansion the gather's; `unique` changes nothing.
// CHECK-LABEL: func @dynamic_dims_unique
//  CHECK-SAME: (%[[DATA:.*]]: tensor<?x?xf32>, %[[IDX:.*]]: tensor<?x1xi32>)
//   CHECK-DAG: %[[D0:.*]] = tensor.dim %[[DATA]], %c0
//   CHECK-DAG: %[[D1:.*]] = tensor.dim %[[DATA]], %c1
//       CHECK: %[[INIT:.*]] = tensor.empty(%[[D1]], %[[D0]]) : tensor<?x?xf32>
//       CHECK: %[[T:.*]] = linalg.transpose ins(%[[DATA]] : tensor<?x?xf32>) outs(%[[INIT]] : tensor<?x?xf32>) permutation = [1, 0]
//       CHECK: %[[R:.*]] = gather.gather_nd %[[T]][%[[IDX]]] : (tensor<?x?xf32>, tensor<?x1xi32>) -> tensor<?x?xf32>
//       CHECK: %[[N:.*]] = tensor.dim %[[R]], %c0
//       CHECK: %[[M:.*]] = tensor.dim %[[R]], %c1
//       CHECK: tensor.expand_shape %[[R]] {{\[}}[0], [1, 2]] output_shape [%[[N]], %[[M]], 1] : tensor<?x?xf32> into tensor<?x?x1xf32>
func.func @dynamic_dims_unique(%data: tensor<?x?xf32>, %idx: tensor<?x1xi32>) -> tensor<?x?x1xf32> {
  %r = tensor.gather %data[%idx] gather_dims([1]) unique : (tensor<?x?xf32>, tensor<?x1xi32>) -> tensor<?x?x1xf32>
  return %r : tensor<?x?x1xf32>
}

// -----

/// Coordinates of a width the gather ops do not take are sign-extended.
// CHECK-LABEL: func @odd_width_coordinates
//       CHECK: %[[I:.*]] = arith.extsi %{{.*}} : tensor<3x1xi4> to tensor<3x1xi64>
//       CHECK: gather.gather_nd %{{.*}}[%[[I]]] : (tensor<4xi8>, tensor<3x1xi64>) -> tensor<3xi8>
func.func @odd_width_coordinates(%data: tensor<4xi8>, %idx: tensor<3x1xi4>) -> tensor<3xi8> {
  %r = tensor.gather %data[%idx] gather_dims([0]) : (tensor<4xi8>, tensor<3x1xi4>) -> tensor<3xi8>
  return %r : tensor<3xi8>
}

// -----

/// Data the gather ops do not take (index elements) stays a tensor.gather.
// CHECK-LABEL: func @unsupported_data_type_unchanged
//       CHECK: tensor.gather
//   CHECK-NOT: gather.gather_nd
func.func @unsupported_data_type_unchanged(%data: tensor<4xindex>, %idx: tensor<3x1xi32>) -> tensor<3xindex> {
  %r = tensor.gather %data[%idx] gather_dims([0]) : (tensor<4xindex>, tensor<3x1xi32>) -> tensor<3xindex>
  return %r : tensor<3xindex>
}

// -----

/// A constant coordinate out of range is raised like any other: check mode
/// reports it if the gather runs (the verifier checks no index values, and
/// gather-warn-constant-indices warns). The transpose brings dim 1 first.
// CHECK-LABEL: func.func @constant_out_of_range
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: gather.gather_nd %[[T]]
// CHECK-NOT: mode
func.func @constant_out_of_range(%data: tensor<3x4xf32>) -> tensor<3x3xf32> {
  %i = arith.constant dense<[[3], [0], [4294967296]]> : tensor<3x1xindex>
  %r = tensor.gather %data[%i] gather_dims([1]) : (tensor<3x4xf32>, tensor<3x1xindex>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
