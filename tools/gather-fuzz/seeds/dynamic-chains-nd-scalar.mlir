func.func @gg(%d: tensor<10xi1>) -> tensor<2xi1> {
  %i = arith.constant dense<[1, 3, 5]> : tensor<3xi32>
  %j = arith.constant dense<[2, 0]> : tensor<2xindex>
  %0 = gather.gather %d[%i] : (tensor<10xi1>, tensor<3xi32>) -> tensor<3xi1>
  %1 = gather.gather %0[%j] {mode = #gather<mode clamp>} : (tensor<3xi1>, tensor<2xindex>) -> tensor<2xi1>
  return %1 : tensor<2xi1>
}
func.func @nd(%d: tensor<2x3x4xcomplex<f64>>) -> tensor<2x4xcomplex<f64>> {
  %i = arith.constant dense<[[-1, 2], [9223372036854775807, -9223372036854775808]]> : tensor<2x2xi64>
  %0 = gather.gather_nd %d[%i] {mode = #gather<mode wrap>} : (tensor<2x3x4xcomplex<f64>>, tensor<2x2xi64>) -> tensor<2x4xcomplex<f64>>
  return %0 : tensor<2x4xcomplex<f64>>
}
func.func @scalar(%d: tensor<5xbf16>) -> tensor<bf16> {
  %i = arith.constant dense<-9223372036854775808> : tensor<i64>
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<5xbf16>, tensor<i64>) -> tensor<bf16>
  return %0 : tensor<bf16>
}
