// (no signature line: an ASan SEGV, which one would mask wholesale)
//
// Open, not minimized: found by a 20-minute scripts/fuzz.sh run of
// 2026-11-29 on the merged code (the first long run with transform
// schedules and sharded modules in the fuzzer). Signature seen: ERROR: AddressSanitizer: SEGV
func.func @unchanged_after_failure(%d: tensor<?x6x4611686018427387904xf32>, %x: tensor<2147483648x2xi64>) -> tensor<2147483648x4611686018427387904xf32> {
  %e = tensor.empty() : tensor<2147483648x2xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2147483648x2xi64>) outs(%e : tensor<2147483648x2xi64>) {
  ^bb4611686018427387904(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<2147483648x2xi64>
  %r = gather.gather_nd %d[%ids] : (tensor<?x6x4611686018427387904xf32>, tensor<2147483648x2xi64>) -> tensor<2147483648x4611686018427387904xf32>
  return %r : tensor<2147483648x4611686018427387904xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.sequence %root : !transform.any_op failures(suppress)    transform.yield
  }
}
