// declined: gather-fuzz does not run this (hitsUpstreamBug)
//
// Open, upstream (MLIR 22.1.8): tiling a linalg op that has a dim of static
// size 0 (here the producer of the ids, tensor<0x6xi64>) dereferences a
// missing tile size in linalg::computeTileSizes (a SEGV). Stock mlir-opt-22
// --transform-interpreter crashes the same way on a linalg.copy of
// tensor<4x0xf32> tiled by [2, 0]. Found by gather-fuzz (2026-11-29); the
// harness declines a schedule beside a linalg op with an empty dim.
func.func @gather_fused_consumer(%d: tensor<0x7x5xf32>, %x: tensor<0x6xi64>) -> tensor<0x?x5xf32> {
  %e = tensor.empty() : tensor<0x6xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<0x6xi64>) outs(%e : tensor<0x6xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<0x6xi64>
  %r = gather.gather %d[%ids] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<0x7x5xf32>, tensor<0x6xi64>) -> tensor<0x?x5xf32>
  return %r : tensor<0x?x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [0, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
