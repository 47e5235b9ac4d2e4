// RUN: gather-test-opt %s --test-gather-infer-types --split-input-file | FileCheck %s

// Each op is rebuilt from operands and attributes alone; the result type
// comes from InferTypeOpInterface, cast back to the written type if it
// differs.

// CHECK-LABEL: func.func @gather_batch_dims_1_axis_2
// CHECK: %[[G:.*]] = gather.gather {{.*}} -> tensor<2x1x3x4xi32>
// CHECK-NEXT: return %[[G]]
func.func @gather_batch_dims_1_axis_2(%d: tensor<2x1x5x4xi32>, %i: tensor<2x3xi32>) -> tensor<2x1x3x4xi32> {
  %0 = gather.gather %d[%i] {axis = 2 : i64, batch_dims = 1 : i64} : (tensor<2x1x5x4xi32>, tensor<2x3xi32>) -> tensor<2x1x3x4xi32>
  return %0 : tensor<2x1x3x4xi32>
}

// -----

/// A static indices batch dimension refines the dynamic data one.
// CHECK-LABEL: func.func @gather_batch_dim_from_indices
// CHECK: %[[G:.*]] = gather.gather {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.cast %[[G]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @gather_batch_dim_from_indices(%d: tensor<?x5xf32>, %i: tensor<2x3xi32>) -> tensor<?x3xf32> {
  %0 = gather.gather %d[%i] {axis = 1 : i64, batch_dims = -1 : i64} : (tensor<?x5xf32>, tensor<2x3xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @gather_scalar_index_negative_axis
// CHECK: gather.gather {{.*}} -> tensor<4xf32>
func.func @gather_scalar_index_negative_axis(%d: tensor<4x7xf32>, %i: tensor<i8>) -> tensor<4xf32> {
  %0 = gather.gather %d[%i] {axis = -1 : i64} : (tensor<4x7xf32>, tensor<i8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @gather_unranked_data
// CHECK: gather.gather {{.*}} -> tensor<*xf32>
func.func @gather_unranked_data(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

/// A written static result type is kept; inference gives the dynamic one.
// CHECK-LABEL: func.func @gather_elements_dynamic
// CHECK: %[[G:.*]] = gather.gather_elements {{.*}} -> tensor<?x3xf32>
// CHECK-NEXT: tensor.cast %[[G]] : tensor<?x3xf32> to tensor<2x3xf32>
func.func @gather_elements_dynamic(%d: tensor<?x?xf32>, %i: tensor<?x3xi64>) -> tensor<2x3xf32> {
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// Ranked indices give a ranked result even for unranked data.
// CHECK-LABEL: func.func @gather_elements_unranked_data
// CHECK: gather.gather_elements {{.*}} -> tensor<4x2xf32>
func.func @gather_elements_unranked_data(%d: tensor<*xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  %0 = gather.gather_elements %d[%i] : (tensor<*xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func.func @gather_nd_batch_dims_1
// CHECK: gather.gather_nd {{.*}} -> tensor<2x2xi32>
func.func @gather_nd_batch_dims_1(%d: tensor<2x2x2xi32>, %i: tensor<2x1xi64>) -> tensor<2x2xi32> {
  %0 = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

/// The static data batch dimension refines the dynamic indices one.
// CHECK-LABEL: func.func @gather_nd_batch_from_data
// CHECK: gather.gather_nd {{.*}} -> tensor<3x7x5xf32>
func.func @gather_nd_batch_from_data(%d: tensor<3x4x5xf32>, %i: tensor<?x7x1xi32>) -> tensor<?x7x5xf32> {
  %0 = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<3x4x5xf32>, tensor<?x7x1xi32>) -> tensor<?x7x5xf32>
  return %0 : tensor<?x7x5xf32>
}
