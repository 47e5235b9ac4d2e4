// math ops on gathered tensors lower all the way: LLVM intrinsics (exp,
// sqrt), libm calls (tanh, erf; expm1 and log1p, which keep the digits of
// small values), outlined integer powers (ipowi) and complex functions,
// fused into the gather's loop or not, serially and on threads.
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

/// expm1 and log1p of 1e-7 and 1e-30 (exp(x) - 1 and log(1 + x) give
/// 1.19e-7 and 0).
func.func @small_values(%t: tensor<2xf32>, %ids: tensor<2xi64>) -> tensor<2x2xf32> {
  %g = gather.gather %t[%ids] : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>
  %e = math.expm1 %g : tensor<2xf32>
  %l = math.log1p %g : tensor<2xf32>
  %out = tensor.empty() : tensor<2x2xf32>
  %o0 = tensor.insert_slice %e into %out[0, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
  %o1 = tensor.insert_slice %l into %o0[1, 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
  return %o1 : tensor<2x2xf32>
}

/// complex.exp of gathered complex values, as real and imaginary parts.
func.func @complex_exp(%t: tensor<3xcomplex<f32>>, %ids: tensor<2xi64>) -> tensor<2x2xf32> {
  %g = gather.gather %t[%ids] : (tensor<3xcomplex<f32>>, tensor<2xi64>) -> tensor<2xcomplex<f32>>
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<2xcomplex<f32>>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%z: complex<f32>, %o: f32):
    %x = complex.exp %z : complex<f32>
    %re = complex.re %x : complex<f32>
    %im = complex.im %x : complex<f32>
    %i = linalg.index 0 : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %i, %c0 : index
    %v = arith.select %first, %re, %im : f32
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
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
  %st = arith.constant dense<[1.0e-30, 1.0e-7]> : tensor<2xf32>
  %sids = arith.constant dense<[1, 0]> : tensor<2xi64>
  %s = call @small_values(%st, %sids) : (tensor<2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %su = tensor.cast %s : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%su) : (tensor<*xf32>) -> ()
  %ct = complex.constant [0.0 : f32, 0.0 : f32] : complex<f32>
  %c1 = complex.constant [1.0 : f32, 0.0 : f32] : complex<f32>
  %ci = complex.constant [0.0 : f32, 1.0 : f32] : complex<f32>
  %cz = tensor.from_elements %ct, %c1, %ci : tensor<3xcomplex<f32>>
  %cids = arith.constant dense<[1, 2]> : tensor<2xi64>
  %cx = call @complex_exp(%cz, %cids) : (tensor<3xcomplex<f32>>, tensor<2xi64>) -> tensor<2x2xf32>
  %cu = tensor.cast %cx : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%cu) : (tensor<*xf32>) -> ()
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
// expm1 and log1p: [[1e-07, 1e-30], [1e-07, 1e-30]] (to float's digits).
// CHECK: [{{1e-07|9.99999.e-08}}, {{1e-30|9.99999.e-31}}]
// CHECK: [{{1e-07|9.99999.e-08}}, {{1e-30|9.99999.e-31}}]
// exp(1) = e, exp(i) = cos 1 + i sin 1: re [e, 0.540302], im [0, 0.841471].
// CHECK: [{{2.7182[0-9]}}, {{0.54030[0-9]}}]
// CHECK: [0, {{0.84147[0-9]}}]
