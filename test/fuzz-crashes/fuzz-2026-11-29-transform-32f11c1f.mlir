// signature: gather-fuzz: pass 'transform-interpreter' succeeded but produced IR that does not verify
//
// Open, not minimized: found by a 20-minute scripts/fuzz.sh run of
// 2026-11-29 on the merged code (the first long run with transform
// schedules and sharded modules in the fuzzer). Signature seen: gather-fuzz: pass 'transform-interpreter' succeeded but produced IR that does not verify
func.func @gather_nd_for(%d: tensor<4x0xf32>, %i: tensor<0x1xi64>) -> tensor<?x0xf32> {
  %r = gather.gather_nd %d[%i] : (tensor<4x0xf32>, tensor<0x1xi64>) -> tensor<?x0xf32>
  return %r : tensor<?x0xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l9223372036854775807 = transform.structured.tile_using_for %g tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
