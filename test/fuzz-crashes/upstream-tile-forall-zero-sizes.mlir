// declined: gather-fuzz does not run this (hitsUpstreamBug)
//
// Open, upstream (MLIR 22.1.8): tile_using_forall with every tile size 0
// builds no loop and then reads the bounds of one (scf::ForallOp::
// getLoopLowerBounds, a SEGV). Stock mlir-opt-22 crashes the same way on a
// linalg.copy tiled by [0]. Found by gather-fuzz (2026-11-29); the harness
// declines such schedules.
func.func @dynamic(%d: tensor<9x0xf32>, %x: tensor<?xi64>) -> tensor<?x0xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xi64>) outs(%e : tensor<?xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<?xi64>
  %r = gather.gather %d[%ids] {mode = #gather<mode clamp>} : (tensor<9x0xf32>, tensor<?xi64>) -> tensor<?x0xf32>
  return %r : tensor<?x0xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
