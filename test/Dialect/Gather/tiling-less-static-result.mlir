// RUN: gather-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A gather op whose declared result is less static than its operands
// allow, tiled or fused by upstream's transforms: the loop's destination
// (the reified result shape) has the op's type, so the loop replaces the
// op as it is.

/// tile_using_for: the destination's dynamic dim is a value, not the
/// constant the operands give.
// CHECK-LABEL: func.func @gather_for
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<4x?xf32>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[E]]) -> (tensor<4x?xf32>)
// CHECK: return %[[R]] : tensor<4x?xf32>
func.func @gather_for(%d: tensor<4x5xf32>, %i: tensor<3xi64>) -> tensor<4x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0, %l1 = transform.structured.tile_using_for %g tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// tile_using_forall, both dims dynamic in the result.
// CHECK-LABEL: func.func @gather_elements_forall
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
// CHECK: %[[R:.*]] = scf.forall {{.*}} shared_outs(%{{.*}} = %[[E]]) -> (tensor<?x?xf32>)
// CHECK: return %[[R]] : tensor<?x?xf32>
func.func @gather_elements_forall(%d: tensor<4x5xf32>, %i: tensor<2x3xi64>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<4x5xf32>, tensor<2x3xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @gather_nd_for
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x5xf32>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[E]]) -> (tensor<?x5xf32>)
// CHECK: return %[[R]] : tensor<?x5xf32>
func.func @gather_nd_for(%d: tensor<4x5xf32>, %i: tensor<3x1xi64>) -> tensor<?x5xf32> {
  %r = gather.gather_nd %d[%i] : (tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0 = transform.structured.tile_using_for %g tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// fuse_consumer_into_loop: the gather's result, a shared output of the
/// producer's loop, has the gather's type.
// CHECK-LABEL: func.func @gather_fused_consumer
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<2x?x5xf32>
// CHECK: %[[R:.*]]:2 = scf.forall {{.*}} shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %[[E]]) -> (tensor<2x6xi64>, tensor<2x?x5xf32>)
// CHECK: return %[[R]]#1 : tensor<2x?x5xf32>
func.func @gather_fused_consumer(%d: tensor<2x7x5xf32>, %x: tensor<2x6xi64>) -> tensor<2x?x5xf32> {
  %e = tensor.empty() : tensor<2x6xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x6xi64>) outs(%e : tensor<2x6xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<2x6xi64>
  %r = gather.gather %d[%ids] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x7x5xf32>, tensor<2x6xi64>) -> tensor<2x?x5xf32>
  return %r : tensor<2x?x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [1, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
