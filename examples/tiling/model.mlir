// The README's tiling example: a gather of table rows feeding an
// elementwise consumer (each value doubled). schedule.mlir tiles the
// consumer with scf.forall and fuses the gather into its tiles; the result
// is the same as without the schedule:
//   [[6, 7, 8], [2, 3, 4], [6, 7, 8], [0, 1, 2]] * 2
func.func @model(%table: tensor<4x3xf32>, %ids: tensor<4xi64>) -> tensor<4x3xf32> {
  %g = gather.gather %table[%ids] : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @main() {
  %table = arith.constant dense<[[0.0, 1.0, 2.0], [2.0, 3.0, 4.0], [4.0, 5.0, 6.0], [6.0, 7.0, 8.0]]> : tensor<4x3xf32>
  %ids = arith.constant dense<[3, 1, -1, 0]> : tensor<4xi64>
  %r = call @model(%table, %ids) : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  %u = tensor.cast %r : tensor<4x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
