func.func @const_min() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %i = arith.constant dense<[-9223372036854775808, 9223372036854775807, -1]> : tensor<3xi64>
  %0 = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<5xf32>, tensor<3xi64>) -> tensor<3xf32>
  %1 = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<5xf32>, tensor<3xi64>) -> tensor<3xf32>
  %2 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<5xf32>, tensor<3xi64>) -> tensor<3xf32>
  %3 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<5xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
