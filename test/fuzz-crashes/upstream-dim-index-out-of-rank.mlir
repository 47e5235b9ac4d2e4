// declined: gather-fuzz does not run this (hitsUpstreamBug)
//
// Open, upstream (MLIR 22.1.8): a tensor.dim whose constant index is past
// its operand's rank verifies (the ops' spec calls it undefined behavior),
// and upstream's ValueBoundsConstraintSet then reads the shape at that
// index unchecked: a SEGV when our bag's consumer fusion asks it to compare
// sizes, and in a canonicalization pattern of gather-to-llvm (the index -1).
// Found by gather-fuzz (2026-11-29); the harness declines a dim op whose
// constant index is outside its operand's rank.
func.func @fixed_bags_dynamic(%t: tensor<1x3xf32>, %x: tensor<?x?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c2147483648 = arith.constant 2147483648 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xi64>
  %m = tensor.dim %x, %c2147483648 : tensor<?x?xi64>
  %e = tensor.empty(%n, %m) : tensor<?x?xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xi64>) outs(%e : tensor<?x?xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<?x?xi64>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction sum>} : (tensor<1x3xf32>, tensor<?x?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2147483648, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
