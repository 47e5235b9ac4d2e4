// RUN: gather-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// An op with an unranked operand has no iteration domain (its shape cannot
// be reified) and no loops: tiling it is an error, never a crash, whatever
// its result's rank.

func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<3xi64>) -> tensor<3x?xf32> {
  // expected-note @below {{target op}}
  %r = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi64>) -> tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too many tiles provided, expected at most 0 found 2}}
    %t, %l0, %l1 = transform.structured.tile_using_for %g tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @unranked_indices(%d: tensor<4x5xf32>, %i: tensor<*xi64>) -> tensor<?x5xf32> {
  // expected-note @below {{target op}}
  %r = gather.gather %d[%i] : (tensor<4x5xf32>, tensor<*xi64>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too many tiles provided, expected at most 0 found 2}}
    %t, %l0, %l1 = transform.structured.tile_using_for %g tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Tiles of a scatter along index positions may write the same element of
// dest; those of an scf.forall run in no order, so they are refused (an
// scf.for keeps them in order).
func.func @scatter_forall_index_positions(%d: tensor<8x6xf32>, %i: tensor<5xi64>, %u: tensor<5x6xf32>) -> tensor<8x6xf32> {
  // expected-warning @below {{tiling is not thread safe at axis #0}}
  // expected-error @below {{cannot be tiled by scf.forall along a dim of index positions: its tiles may write the same element of dest, in no order}}
  // expected-error @below {{faild to tile operation}}
  // expected-error @below {{failed to generate tiling loops}}
  // expected-note @below {{when applied to this op}}
  %r = gather.scatter %d[%i], %u {reduction = #gather<combine add>} : (tensor<8x6xf32>, tensor<5xi64>, tensor<5x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gather.scatter"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.tile_using_forall failed to apply}}
    %t, %l = transform.structured.tile_using_forall %s tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
