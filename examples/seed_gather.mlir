// OpenVINO Gather-8 examples 2 (batch_dims = 1) and 7 (fill mode), lowered
// by `gather-opt --gather-to-llvm` and run by mlir-runner (scripts/demo.sh).
// The gathers take their operands as function arguments, so they become
// kernels (constant operands would simply fold).
func.func private @printMemrefI32(tensor<*xi32>)

func.func @batched_gather(%data: tensor<2x5xi32>, %idx: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %r = gather.gather %data[%idx] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

func.func @gather_fill(%v: tensor<5xi32>, %idx: tensor<3xi64>) -> tensor<3xi32> {
  %f = gather.gather %v[%idx] {mode = #gather<mode fill>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  return %f : tensor<3xi32>
}

func.func @main() {
  %data = arith.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]> : tensor<2x5xi32>
  %idx = arith.constant dense<[[0, 0, 4], [4, 0, 0]]> : tensor<2x3xi32>
  %r = call @batched_gather(%data, %idx) : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u = tensor.cast %r : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()

  %v = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %oob = arith.constant dense<[3, 10, -20]> : tensor<3xi64>
  %f = call @gather_fill(%v, %oob) : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  %fu = tensor.cast %f : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%fu) : (tensor<*xi32>) -> ()
  return
}
