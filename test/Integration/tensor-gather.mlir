// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: %run_main %t.mlir | FileCheck %s
// RUN: not %mlir_run -e out_of_range %t.mlir 2>&1 | FileCheck %s --check-prefix=CHECK-MODE
// RUN: gather-opt %s --convert-tensor-to-gather="mode=clamp" --gather-to-llvm | %mlir_run -e out_of_range | FileCheck %s --check-prefix=CLAMP

// Upstream tensor.gather, which MLIR 22 cannot bufferize or lower
// (llvm-project#119805), runs end to end: gather-to-llvm raises it first.
// Expected values are numpy's (data[:, idx].T, data[i0, :, i2], data[idx]).

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  // gather_dims = [1], rank-reduced, index coordinates.
  // CHECK: sizes = [3, 3]
  // CHECK-NEXT: {{\[}}[3,   7,   11],
  // CHECK-NEXT: [0,   4,   8],
  // CHECK-NEXT: [2,   6,   10]]
  %d0 = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %i0 = arith.constant dense<[[3], [0], [2]]> : tensor<3x1xindex>
  %r0 = tensor.gather %d0[%i0] gather_dims([1]) : (tensor<3x4xf32>, tensor<3x1xindex>) -> tensor<3x3xf32>
  %u0 = tensor.cast %r0 : tensor<3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()

  // gather_dims = [0, 2] of rank 3, not rank-reduced (unit dims kept), i32
  // coordinates, unique.
  // CHECK: sizes = [2, 1, 3, 1]
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[15],
  // CHECK-NEXT: [19],
  // CHECK-NEXT: [23]]],
  // CHECK-NEXT: {{\[}}{{\[}}[0],
  // CHECK-NEXT: [4],
  // CHECK-NEXT: [8]]]]
  %d1 = arith.constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32>
  %i1 = arith.constant dense<[[1, 3], [0, 0]]> : tensor<2x2xi32>
  %r1 = tensor.gather %d1[%i1] gather_dims([0, 2]) unique : (tensor<2x3x4xi32>, tensor<2x2xi32>) -> tensor<2x1x3x1xi32>
  %u1 = tensor.cast %r1 : tensor<2x1x3x1xi32> to tensor<*xi32>
  call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()

  // Dynamic dims through a call; -1 counts from the end (check mode
  // normalizes negative coordinates).
  // CHECK: sizes = [3, 1, 4]
  // CHECK-NEXT: {{\[}}{{\[}}[16,   17,   18,   19]],
  // CHECK-NEXT: {{\[}}[16,   17,   18,   19]],
  // CHECK-NEXT: {{\[}}[0,   1,   2,   3]]]
  %d2 = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [16, 17, 18, 19]]> : tensor<5x4xi32>
  %i2 = arith.constant dense<[[4], [-1], [0]]> : tensor<3x1xi64>
  %dd2 = tensor.cast %d2 : tensor<5x4xi32> to tensor<?x?xi32>
  %di2 = tensor.cast %i2 : tensor<3x1xi64> to tensor<?x1xi64>
  %r2 = call @gather_rows(%dd2, %di2) : (tensor<?x?xi32>, tensor<?x1xi64>) -> tensor<?x1x?xi32>
  %u2 = tensor.cast %r2 : tensor<?x1x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
  return
}

func.func @gather_rows(%d: tensor<?x?xi32>, %i: tensor<?x1xi64>) -> tensor<?x1x?xi32> {
  %r = tensor.gather %d[%i] gather_dims([0]) : (tensor<?x?xi32>, tensor<?x1xi64>) -> tensor<?x1x?xi32>
  return %r : tensor<?x1x?xi32>
}

// Coordinate 5 along a dimension of size 3: an error in the default mode;
// clamped to row 2 with mode=clamp.
// CHECK-MODE: error: gather.gather_nd: index 5 is out of range [-3, 2] for data dimension 0 of size 3
// CLAMP: {{\[}}[8,   9,   10,   11],
// CLAMP-NEXT: [4,   5,   6,   7]]
func.func @out_of_range() {
  %d = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %i = arith.constant dense<[[5], [1]]> : tensor<2x1xi32>
  %di = tensor.cast %i : tensor<2x1xi32> to tensor<?x1xi32>
  %r = call @gather_rows_i32(%d, %di) : (tensor<3x4xi32>, tensor<?x1xi32>) -> tensor<?x4xi32>
  %u = tensor.cast %r : tensor<?x4xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @gather_rows_i32(%d: tensor<3x4xi32>, %i: tensor<?x1xi32>) -> tensor<?x4xi32> {
  %r = tensor.gather %d[%i] gather_dims([0]) : (tensor<3x4xi32>, tensor<?x1xi32>) -> tensor<?x4xi32>
  return %r : tensor<?x4xi32>
}
