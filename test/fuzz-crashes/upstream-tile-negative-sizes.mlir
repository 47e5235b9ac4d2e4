// declined: gather-fuzz does not run this (hitsUpstreamBug)
//
// Open, upstream (MLIR 22.1.8): tile_using_for and tile_using_forall take
// negative static tile sizes, and a dynamic one (INT64_MIN) with no handle
// to give it. With -1 they build slices of size -1 (IR that does not
// verify); with INT64_MIN, TileUsingForallOp::apply reads a missing operand
// (a SEGV). Stock mlir-opt-22 does both on a linalg.matmul. Found by
// gather-fuzz (2026-11-29); the harness declines such schedules.
func.func @g(%d: tensor<4x6x8x3xf32>, %i: tensor<4x5x2xi32>) -> tensor<4x5x3xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<4x6x8x3xf32>, tensor<4x5x2xi32>) -> tensor<4x5x3xf32>
  return %r : tensor<4x5x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [2, 2, -9223372036854775808] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
