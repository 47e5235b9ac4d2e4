// declined: gather-fuzz does not run this (hitsUpstreamBug)
//
// Open, upstream (MLIR 22.1.8): a transform.sequence written without its
// body parses, and NamedSequenceOp's verifier then reads the missing block
// (getConsumedBlockArguments, a SEGV) before the sequence's own verifier
// could reject it. Stock mlir-opt-22 --transform-interpreter crashes the
// same way with any payload. Found by gather-fuzz (2026-11-29); the harness
// declines a transform op that takes a body but has none.
func.func @g(%d: tensor<4x5xf32>, %i: tensor<3xi64>) -> tensor<3x5xf32> {
  %r = gather.gather %d[%i] {axis = 0 : i64} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.sequence %root : !transform.any_op failures(suppress)    transform.yield
  }
}
