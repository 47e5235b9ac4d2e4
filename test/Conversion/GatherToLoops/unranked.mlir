// RUN: gather-opt %s --convert-gather-to-loops | FileCheck %s
/// Ranked operands with an unranked result: the kernel computes the ranked
/// result and casts it.
// CHECK-LABEL: func.func @unranked_result
// CHECK: %[[T:.*]] = bufferization.to_tensor %{{.*}} : memref<3xf32> to tensor<3xf32>
// CHECK: tensor.cast %[[T]] : tensor<3xf32> to tensor<*xf32>
func.func @unranked_result(%d: tensor<5xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  %0 = gather.gather %d[%i] : (tensor<5xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
