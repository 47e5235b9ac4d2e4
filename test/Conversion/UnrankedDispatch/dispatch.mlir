// RUN: gather-opt %s --gather-dispatch-unranked="max-rank=2" --split-input-file | FileCheck %s

/// Unranked data: one case per data rank the rules accept (key = data rank
/// * 3 + indices rank); a rank past the maximum selects the default, which
/// reports rule RANK_LIMIT (3) or RANKS (4).
// CHECK-LABEL: func.func @unranked_data
// CHECK: %[[RANK:.*]] = tensor.rank %{{.*}} : tensor<*xf32>
// CHECK: scf.index_switch
// CHECK: case 4 {
// CHECK: %[[D1:.*]] = tensor.cast %{{.*}} : tensor<*xf32> to tensor<?xf32>
// CHECK: gather.gather %[[D1]]
// CHECK: case 7 {
// CHECK: tensor.cast %{{.*}} : tensor<*xf32> to tensor<?x?xf32>
// CHECK: default {
// CHECK: call @gather_mlir_shape_error
func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

/// Ranked operands are left alone, an unranked result too (the lowerings
/// compute the ranked result and cast it).
// CHECK-LABEL: func.func @ranked_operands
// CHECK-NEXT: gather.gather
// CHECK-NOT: scf.index_switch
func.func @ranked_operands(%d: tensor<5xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  %0 = gather.gather %d[%i] : (tensor<5xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
