// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="prefetch-distance=1 gather-loads=scalar" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="gather-loads=element" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s
/// The same module with the gather ops bufferized by One-Shot Bufferize
/// (BufferizableOpInterface) instead of convert-gather-to-loops.
// RUN: gather-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --gather-to-llvm | %run_main | FileCheck %s

// Dynamic shapes (the kernels see only `?` dims), zero-size dimensions and
// scalar indices.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @gather_axis1(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @gather_rows_fill(%d: tensor<?x?xf32>, %i: tensor<?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @gather_elements_dyn(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @gather_nd_dyn(%d: tensor<?x?x?xf32>, %i: tensor<?x1xi64>) -> tensor<?x?xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<?x?x?xf32>, tensor<?x1xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @scalar_index(%d: tensor<?x?xf32>, %i: tensor<i64>) -> tensor<?xf32> {
  %r = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<i64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @wrap_dyn(%d: tensor<?xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @main() {
  %m = arith.constant dense<[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0]]> : tensor<3x3xf32>
  %d = tensor.cast %m : tensor<3x3xf32> to tensor<?x?xf32>

  // CHECK: {{\[}}[2,   0],
  // CHECK-NEXT: [12,   10],
  // CHECK-NEXT: [22,   20]]
  %i1 = arith.constant dense<[-1, 0]> : tensor<2xi64>
  %di1 = tensor.cast %i1 : tensor<2xi64> to tensor<?xi64>
  %r1 = call @gather_axis1(%d, %di1) : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r1) : (tensor<?x?xf32>) -> ()

  // CHECK: {{\[}}[0,   0,   0],
  // CHECK-NEXT: [10,   11,   12]]
  %i2 = arith.constant dense<[3, 1]> : tensor<2xi32>
  %di2 = tensor.cast %i2 : tensor<2xi32> to tensor<?xi32>
  %r2 = call @gather_rows_fill(%d, %di2) : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  call @print(%r2) : (tensor<?x?xf32>) -> ()

  // CHECK: {{\[}}[20,   1,   12]]
  %i3 = arith.constant dense<[[2, 0, -2]]> : tensor<1x3xi32>
  %di3 = tensor.cast %i3 : tensor<1x3xi32> to tensor<?x?xi32>
  %r3 = call @gather_elements_dyn(%d, %di3) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r3) : (tensor<?x?xf32>) -> ()

  // CHECK: {{\[}}[2,   3],
  // CHECK-NEXT: [4,   5]]
  %n = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]> : tensor<2x2x2xf32>
  %dn = tensor.cast %n : tensor<2x2x2xf32> to tensor<?x?x?xf32>
  %ni = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %dni = tensor.cast %ni : tensor<2x1xi64> to tensor<?x1xi64>
  %r4 = call @gather_nd_dyn(%dn, %dni) : (tensor<?x?x?xf32>, tensor<?x1xi64>) -> tensor<?x?xf32>
  call @print(%r4) : (tensor<?x?xf32>) -> ()

  // Scalar index -1: the last row, with the axis gone.
  // CHECK: [20,  21,  22]
  %s = arith.constant dense<-1> : tensor<i64>
  %r5 = call @scalar_index(%d, %s) : (tensor<?x?xf32>, tensor<i64>) -> tensor<?xf32>
  %u5 = tensor.cast %r5 : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()

  // No indices: empty results.
  // CHECK: sizes = [3, 0]
  // CHECK: sizes = [0, 3]
  %e = arith.constant dense<> : tensor<0xi64>
  %de = tensor.cast %e : tensor<0xi64> to tensor<?xi64>
  %r6 = call @gather_axis1(%d, %de) : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r6) : (tensor<?x?xf32>) -> ()
  %e32 = arith.constant dense<> : tensor<0xi32>
  %de32 = tensor.cast %e32 : tensor<0xi32> to tensor<?xi32>
  %r7 = call @gather_rows_fill(%d, %de32) : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  call @print(%r7) : (tensor<?x?xf32>) -> ()

  // An empty data axis in fill mode: all zeros.
  // CHECK: {{\[}}[0,   0,   0],
  // CHECK-NEXT: [0,   0,   0]]
  %z = arith.constant dense<> : tensor<0x3xf32>
  %dz = tensor.cast %z : tensor<0x3xf32> to tensor<?x?xf32>
  %r8 = call @gather_rows_fill(%dz, %di2) : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  call @print(%r8) : (tensor<?x?xf32>) -> ()

  // wrap along an axis of a size known at run time: a power of two (the
  // ids' low bits) and not (a remainder), for the int64 extremes, ids
  // around 2^52 and small ones.
  // CHECK: [10,  13,  13,  10,  13,  10,  13,  11,  11,  13,  10,  11,  12,  13,  12,  12]
  // CHECK: [11,  11,  11,  12,  12,  11,  11,  10,  12,  11,  10,  11,  12,  10,  10,  11]
  %wi = arith.constant dense<[-9223372036854775808, 9223372036854775807, -5, -4, -1, 4, 7, 9, 4503599627370497, -4503599627370497, 0, 1, 2, 3, 6, 10]> : tensor<16xi64>
  %dwi = tensor.cast %wi : tensor<16xi64> to tensor<?xi64>
  %w4 = arith.constant dense<[10.0, 11.0, 12.0, 13.0]> : tensor<4xf32>
  %dw4 = tensor.cast %w4 : tensor<4xf32> to tensor<?xf32>
  %r9 = call @wrap_dyn(%dw4, %dwi) : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  %u9 = tensor.cast %r9 : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u9) : (tensor<*xf32>) -> ()
  %w3 = arith.constant dense<[10.0, 11.0, 12.0]> : tensor<3xf32>
  %dw3 = tensor.cast %w3 : tensor<3xf32> to tensor<?xf32>
  %r10 = call @wrap_dyn(%dw3, %dwi) : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  %u10 = tensor.cast %r10 : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u10) : (tensor<*xf32>) -> ()
  return
}
