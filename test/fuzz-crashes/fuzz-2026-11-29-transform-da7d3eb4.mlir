// signature: gather-fuzz: pass 'transform-interpreter' succeeded but produced IR that does not verify
//
// Open, not minimized: found by a 20-minute scripts/fuzz.sh run of
// 2026-11-29 on the merged code (the first long run with transform
// schedules and sharded modules in the fuzzer). Signature seen: gather-fuzz: pass 'transform-interpreter' succeeded but produced IR that does not verify
func.func @gathQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQer_nd_batch_dims_1(%d: tensor<4x6x8x0xf32>, %i: tensor<4x5x2xi32>) -> tensor<4x5x0xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<4x6x8x0xf32>, tensor<4x5x2xi32>) -> tensor<4x5x0xf32>
  return %r : tensor<4x5x0xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [0, 2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
