// math ops on gathered tensors lower all the way: LLVM intrinsics (exp,
// sqrt), libm calls (tanh, erf) and outlined integer powers (ipowi), fused
// into the gather's loop or not, serially and on threads.
// RUN: gather-opt %s --gather-to-llvm > %t.fused.mlir
// RUN: %run_main %t.fused.mlir | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm=fuse-elementwise=false > %t.unfused.mlir
// RUN: %run_main %t.unfused.mlir | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" > %t.threads.mlir
// RUN: %run_main_omp %t.threads.mlir | FileCheck %s
/// Nothing of the math dialect is left for mlir-translate.
// RUN: mlir-translate --mlir-to-llvmir %t.fused.mlir -o /dev/null
// RUN: mlir-translate --mlir-to-llvmir %t.threads.mlir -o /dev/null

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

/// exp, sqrt, tanh and erf of the rows gathered from [[0, 1], [4, 0.25]]
/// at ids [1, 0].
func.func @float_math(%t: tensor<2x2xf32>, %ids: tensor<2xi64>) -> tensor<4x2x2xf32> {
  %g = gather.gather %t[%ids] : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %e = math.exp %g : tensor<2x2xf32>
  %s = math.sqrt %g : tensor<2x2xf32>
  %h = math.tanh %g : tensor<2x2xf32>
  %f = math.erf %g : tensor<2x2xf32>
  %out = tensor.empty() : tensor<4x2x2xf32>
  %o0 = tensor.insert_slice %e into %out[0, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2xf32> into tensor<4x2x2xf32>
  %o1 = tensor.insert_slice %s into %o0[1, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2xf32> into tensor<4x2x2xf32>
  %o2 = tensor.insert_slice %h into %o1[2, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2xf32> into tensor<4x2x2xf32>
  %o3 = tensor.insert_slice %f into %o2[3, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2xf32> into tensor<4x2x2xf32>
  return %o3 : tensor<4x2x2xf32>
}

/// Cubes of the integers gathered from [2, -3, 5] at ids [2, 1, -3].
func.func @integer_power(%t: tensor<3xi32>, %ids: tensor<3xi64>) -> tensor<3xi32> {
  %g = gather.gather %t[%ids] : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi32>
  %c3 = arith.constant dense<3> : tensor<3xi32>
  %p = math.ipowi %g, %c3 : tensor<3xi32>
  return %p : tensor<3xi32>
}

func.func @main() {
  %t = arith.constant dense<[[0.0, 1.0], [4.0, 0.25]]> : tensor<2x2xf32>
  %ids = arith.constant dense<[1, 0]> : tensor<2xi64>
  %f = call @float_math(%t, %ids) : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<4x2x2xf32>
  %fu = tensor.cast %f : tensor<4x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%fu) : (tensor<*xf32>) -> ()
  %it = arith.constant dense<[2, -3, 5]> : tensor<3xi32>
  %iids = arith.constant dense<[2, 1, -3]> : tensor<3xi64>
  %p = call @integer_power(%it, %iids) : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi32>
  %pu = tensor.cast %p : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%pu) : (tensor<*xi32>) -> ()
  return
}

// exp: [[e^4, e^0.25], [1, e]]; sqrt: [[2, 0.5], [0, 1]];
// tanh(4) = 0.999329, tanh(0.25) = 0.244919, tanh(1) = 0.761594;
// erf(4) = 1 (0.99999998), erf(0.25) = 0.276326, erf(1) = 0.842701.
// CHECK: [{{54.598[0-9]}}, {{1.2840[0-9]}}]
// CHECK: [1, {{2.7182[0-9]}}]
// CHECK: [2, 0.5]
// CHECK: [0, 1]
// CHECK: [{{0.99932[0-9]}}, {{0.24491[0-9]}}]
// CHECK: [0, {{0.76159[0-9]}}]
// CHECK: [1, {{0.27632[0-9]}}]
// CHECK: [0, {{0.84270[0-9]}}]
// CHECK: [125, -27, 8]
