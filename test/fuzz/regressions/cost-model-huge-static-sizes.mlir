// RUN: gather-opt %s --convert-gather-to-affine -o /dev/null
// RUN: gather-opt %s --convert-gather-to-affine="parallel=true" -o /dev/null
//
// A gather-fuzz finding, fixed (UBSan, KernelCostModel.cpp): the cost model
// multiplied static sizes by the element size to compare them with its byte
// thresholds, which overflows int64 for a row of INT64_MAX elements; byte
// counts now saturate.
func.func @huge_rows(%d: tensor<3x9223372036854775807xf32>, %i: tensor<2xi64>) -> tensor<2x9223372036854775807xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<3x9223372036854775807xf32>, tensor<2xi64>) -> tensor<2x9223372036854775807xf32>
  return %0 : tensor<2x9223372036854775807xf32>
}
