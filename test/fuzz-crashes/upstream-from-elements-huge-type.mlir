// signature: LLVM ERROR: SmallVector unable to grow in mlir::tensor::FromElementsOp::parse
//
// Open, upstream (MLIR 22.1.8): tensor.from_elements' parser resolves one
// operand type per element of the result type before it checks the operand
// count, so a result of 3x2147483648 elements asks a SmallVector for 6.4
// billion entries and aborts the process ("LLVM ERROR: SmallVector unable to
// grow"). Nothing of ours runs: gather-opt, mlir-opt-22 and any tool that
// parses this text abort the same way. Found by gather-fuzz (run of
// 2026-11-23) from a seed with a gather result of that type. It stays here
// until upstream's parser checks the count first.
func.func @f(%x: f32) -> tensor<3x2147483648xf32> {
  %t = tensor.from_elements %x : tensor<3x2147483648xf32>
  return %t : tensor<3x2147483648xf32>
}
