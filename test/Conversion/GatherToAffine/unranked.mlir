// RUN: gather-opt %s --convert-gather-to-affine="max-unranked-rank=2" --split-input-file | FileCheck %s

/// Unranked data: one case per data rank the rules accept (key = data rank
/// * 3 + indices rank); a rank past the maximum selects the default, which
/// reports rule RANK_LIMIT (3) or RANKS (4).
// CHECK-LABEL: func.func @unranked_data
// CHECK: %[[RANK:.*]] = tensor.rank %{{.*}} : tensor<*xf32>
// CHECK: scf.index_switch
// CHECK: case 4 {
// CHECK: tensor.cast %{{.*}} : tensor<*xf32> to tensor<?xf32>
// CHECK: case 7 {
// CHECK: tensor.cast %{{.*}} : tensor<*xf32> to tensor<?x?xf32>
// CHECK: default {
// CHECK: call @gather_mlir_shape_error
// CHECK-NOT: gather.gather
func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

/// Ranked operands with an unranked result: the kernel computes the ranked
/// result and casts it.
// CHECK-LABEL: func.func @unranked_result
// CHECK: %[[T:.*]] = bufferization.to_tensor %{{.*}} : memref<3xf32> to tensor<3xf32>
// CHECK: tensor.cast %[[T]] : tensor<3xf32> to tensor<*xf32>
func.func @unranked_result(%d: tensor<5xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  %0 = gather.gather %d[%i] : (tensor<5xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
