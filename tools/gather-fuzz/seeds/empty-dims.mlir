func.func @zero(%d: tensor<0x4xf32>, %i: tensor<3xi64>, %e: tensor<3x0xf32>, %j: tensor<3x5xi32>) -> (tensor<3x4xf32>, tensor<3x5xf32>) {
  %i2 = arith.constant dense<[0, 1, -1]> : tensor<3xi64>
  %0 = gather.gather %d[%i2] {mode = #gather<mode fill>} : (tensor<0x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  %1 = gather.gather_elements %e[%j] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<3x0xf32>, tensor<3x5xi32>) -> tensor<3x5xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<3x5xf32>
}
