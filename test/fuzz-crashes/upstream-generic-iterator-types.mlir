// declined: gather-fuzz does not parse this (usesMalformedIteratorTypes)
//
// Open, upstream (MLIR 22.1.8): linalg.generic's parser crashes (a SEGV in
// memcpy under mlir::Diagnostic::operator<<) while it reports an
// `iterator_types` element that is not an iterator type. Stock mlir-opt-22
// crashes the same way on this function alone; nothing of ours runs. Found
// by gather-fuzz (2026-11-29, the second hour of that day); the harness
// does not parse such text.
func.func @table_after_loop(%x: tensor<4xi64>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = [4294967296]}
      ins(%x : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<4xi64>
  %z = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<9x3xf32>
  %t = linalg.fill ins(%z : f32) outs(%te : tensor<9x3xf32>) -> tensor<9x3xf32>
  %r = gather.gather %t[%ids] : (tensor<9x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
   %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
