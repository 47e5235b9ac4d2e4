// RUN: gather-opt %s --transform-interpreter --split-input-file -verify-diagnostics | FileCheck %s

// Ops with a result dim of static size 0, tiled along another dim: the
// offset into the empty dim is a value, which upstream's slice verifier
// accepts (it rejects a static offset 0 into a dim of size 0, even for an
// empty slice). Both were gather-fuzz findings: the transform interpreter
// succeeded and left IR that did not verify.

// CHECK-LABEL: func.func @gather_nd_for
// CHECK: scf.for
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] [2, 0] [1, 1] : tensor<2x0xf32> into tensor<?x0xf32>
func.func @gather_nd_for(%d: tensor<4x0xf32>, %i: tensor<0x1xi64>) -> tensor<?x0xf32> {
  %r = gather.gather_nd %d[%i] : (tensor<4x0xf32>, tensor<0x1xi64>) -> tensor<?x0xf32>
  return %r : tensor<?x0xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %g tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @gather_nd_batch_forall
// CHECK: scf.forall
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}, %{{.*}}] [4, %{{.*}}, 0] [1, 1, 1] : tensor<4x?x0xf32> into tensor<4x5x0xf32>
func.func @gather_nd_batch_forall(%d: tensor<4x6x8x0xf32>, %i: tensor<4x5x2xi32>) -> tensor<4x5x0xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<4x6x8x0xf32>, tensor<4x5x2xi32>) -> tensor<4x5x0xf32>
  return %r : tensor<4x5x0xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [0, 2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A bag of rows of no columns, tiled by bags.
// CHECK-LABEL: func.func @bag_no_columns
// CHECK: scf.for
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] [%{{.*}}, 0] [1, 1] : tensor<?x0xf32> into tensor<3x0xf32>
func.func @bag_no_columns(%t: tensor<5x0xf32>, %ids: tensor<3x2xi64>) -> tensor<3x0xf32> {
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction sum>} : (tensor<5x0xf32>, tensor<3x2xi64>) -> tensor<3x0xf32>
  return %r : tensor<3x0xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %g tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
