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
