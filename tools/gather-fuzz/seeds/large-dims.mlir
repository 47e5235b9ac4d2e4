func.func @large_static_dims(%d: tensor<2x1000000xf32>, %i: tensor<4294967296x3xi64>) -> tensor<4294967296x3x1000000xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<2x1000000xf32>, tensor<4294967296x3xi64>) -> tensor<4294967296x3x1000000xf32>
  return %0 : tensor<4294967296x3x1000000xf32>
}
func.func @large_nd(%d: tensor<65536x65536x8xf16>, %i: tensor<65536x2xi32>) -> tensor<65536x8xf16> {
  %0 = gather.gather_nd %d[%i] {mode = #gather<mode wrap>} : (tensor<65536x65536x8xf16>, tensor<65536x2xi32>) -> tensor<65536x8xf16>
  return %0 : tensor<65536x8xf16>
}
