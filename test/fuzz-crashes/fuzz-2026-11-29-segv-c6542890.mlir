// (no signature line: an ASan SEGV, which one would mask wholesale)
//
// Open, not minimized: found by a 20-minute scripts/fuzz.sh run of
// 2026-11-29 on the merged code (the first long run with transform
// schedules and sharded modules in the fuzzer). Signature seen: ERROR: AddressSanitizer: SEGV
func.func @split_tuples(%d: tensor<5x6x7xf32>, %x: tensor<8x2xi64>) -> tensor<8x7xf32> {
  %e = tensor.empty() : tensor<8x2xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x2xi64>) outs(%e : tensor<8x2xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<8x2xi64>
  %r = gather.gather_nd %d[%ids] : (tensor<5x6x7xf32>, tensor<8x2xi64>) -> tensor<8x7xf32>
  return %r : tensor<8x7xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [-9223372036854775808, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
