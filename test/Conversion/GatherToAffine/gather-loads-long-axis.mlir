// RUN: gather-opt %s --convert-gather-to-affine | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-affine="target-cpu=sapphirerapids" | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-affine="gather-loads=vector" | FileCheck %s --check-prefix=VECTOR

/// `gather-loads=auto` reads rows gathered from a static data axis of 128 KiB
/// or more with one scalar load per lane, whatever the CPU: 32768 f32 do,
/// 32767 f32 and 16383 f64 do not. An explicit choice is kept.
// CHECK-LABEL: func.func @long_axis
// CHECK-NOT: vector.gather
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32768xf32>
// CHECK-LABEL: func.func @shorter_axis
// CHECK: vector.gather
// CHECK-LABEL: func.func @long_f64_axis
// CHECK-NOT: vector.gather
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x16384xf64>
// CHECK-LABEL: func.func @shorter_f64_axis
// CHECK: vector.gather
// VECTOR-LABEL: func.func @long_axis
// VECTOR: vector.gather
func.func @long_axis(%d: tensor<4x32768xf32>, %i: tensor<4x50xi64>) -> tensor<4x50xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<4x32768xf32>, tensor<4x50xi64>) -> tensor<4x50xf32>
  return %r : tensor<4x50xf32>
}
func.func @shorter_axis(%d: tensor<4x32767xf32>, %i: tensor<4x50xi64>) -> tensor<4x50xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<4x32767xf32>, tensor<4x50xi64>) -> tensor<4x50xf32>
  return %r : tensor<4x50xf32>
}
func.func @long_f64_axis(%d: tensor<2x16384xf64>, %i: tensor<3xi32>) -> tensor<2x3xf64> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<2x16384xf64>, tensor<3xi32>) -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}
func.func @shorter_f64_axis(%d: tensor<2x16383xf64>, %i: tensor<3xi32>) -> tensor<2x3xf64> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<2x16383xf64>, tensor<3xi32>) -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}
