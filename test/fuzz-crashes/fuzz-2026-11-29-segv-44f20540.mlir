// (no signature line: an ASan SEGV, which one would mask wholesale)
//
// Open, not minimized: found by a 20-minute scripts/fuzz.sh run of
// 2026-11-29 on the merged code (the first long run with transform
// schedules and sharded modules in the fuzzer). Signature seen: ERROR: AddressSanitizer: SEGV
func.func @gather_elements_forall(%d: tensor<4x4294967296xf32>, %i: tensor<2x3xi64>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<4x4294967296xf32>, tensor<2x3xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [2, -9223372036854775808] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
