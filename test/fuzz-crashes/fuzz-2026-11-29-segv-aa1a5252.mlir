// (no signature line: an ASan SEGV, which one would mask wholesale)
//
// Open, not minimized: found by a 20-minute scripts/fuzz.sh run of
// 2026-11-29 on the merged code (the first long run with transform
// schedules and sharded modules in the fuzzer). Signature seen: ERROR: AddressSanitizer: SEGV
func.func @fixed_bags_dynamic(%t: tensor<5x3xf32>, %x: tensor<?x?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c-1 = arith.constant -1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xi64>
  %m = tensor.dim %x, %c-1 : tensor<?x?xi64>
  %e = tensor.empty(%n, %m) : tensor<?x?xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xi64>) outs(%e : tensor<?x?xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<?x?xi64>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<?x?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["lintensor<*xic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [-1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
