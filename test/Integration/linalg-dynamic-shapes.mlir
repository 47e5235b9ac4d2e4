// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | %run_main | FileCheck %s

// Dynamic dims through both lowerings (gather-to-llvm's affine kernels;
// convert-gather-to-linalg and stock mlir-opt): sizes come from the operands
// at run time. Expected values computed with numpy.

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @nd_batch(%d: tensor<?x?x?xi32>, %i: tensor<?x?x2xi64>) -> tensor<?x?xi32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<?x?x?xi32>, tensor<?x?x2xi64>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @gather_wrap(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @elements_clamp(%d: tensor<?x?xi32>, %i: tensor<?x?xi8>) -> tensor<?x?xi32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<?x?xi32>, tensor<?x?xi8>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @fill(%d: tensor<?x?xi32>, %i: tensor<?xindex>) -> tensor<?x?xi32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<?x?xi32>, tensor<?xindex>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @main() {
  // CHECK: {{\[}}[11, 3],
  // CHECK-NEXT: [17, 12]]
  %d0 = arith.constant dense<[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]]> : tensor<2x3x4xi32>
  %i0 = arith.constant dense<[[[2, -1], [0, 3]], [[1, 1], [-3, 0]]]> : tensor<2x2x2xi64>
  %dd0 = tensor.cast %d0 : tensor<2x3x4xi32> to tensor<?x?x?xi32>
  %di0 = tensor.cast %i0 : tensor<2x2x2xi64> to tensor<?x?x2xi64>
  %r0 = call @nd_batch(%dd0, %di0) : (tensor<?x?x?xi32>, tensor<?x?x2xi64>) -> tensor<?x?xi32>
  %u0 = tensor.cast %r0 : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()

  // CHECK: {{\[}}{{\[}}[3],
  // CHECK-NEXT: [1]],
  // CHECK-NEXT: {{\[}}[7],
  // CHECK-NEXT: [5]],
  // CHECK-NEXT: {{\[}}[11],
  // CHECK-NEXT: [9]]]
  %d1 = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %i1 = arith.constant dense<[[-1], [1]]> : tensor<2x1xi32>
  %dd1 = tensor.cast %d1 : tensor<3x4xf32> to tensor<?x?xf32>
  %di1 = tensor.cast %i1 : tensor<2x1xi32> to tensor<?x?xi32>
  %r1 = call @gather_wrap(%dd1, %di1) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?x?xf32>
  %u1 = tensor.cast %r1 : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()

  /// Indices smaller than data off the axis (2 rows of 3).
  // CHECK: {{\[}}[3, 0],
  // CHECK-NEXT: [5, 7]]
  %d2 = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %i2 = arith.constant dense<[[3, 0], [1, -1]]> : tensor<2x2xi8>
  %dd2 = tensor.cast %d2 : tensor<3x4xi32> to tensor<?x?xi32>
  %di2 = tensor.cast %i2 : tensor<2x2xi8> to tensor<?x?xi8>
  %r2 = call @elements_clamp(%dd2, %di2) : (tensor<?x?xi32>, tensor<?x?xi8>) -> tensor<?x?xi32>
  %u2 = tensor.cast %r2 : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()

  /// fill along an axis that is empty at run time: zeros, and no read.
  // CHECK: {{\[}}[0, 0],
  // CHECK-NEXT: [0, 0]]
  %d3 = tensor.empty() : tensor<2x0xi32>
  %i3 = arith.constant dense<[0, -1]> : tensor<2xindex>
  %dd3 = tensor.cast %d3 : tensor<2x0xi32> to tensor<?x?xi32>
  %di3 = tensor.cast %i3 : tensor<2xindex> to tensor<?xindex>
  %r3 = call @fill(%dd3, %di3) : (tensor<?x?xi32>, tensor<?xindex>) -> tensor<?x?xi32>
  %u3 = tensor.cast %r3 : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
  return
}
