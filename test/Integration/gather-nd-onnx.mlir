// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s

// The examples of the ONNX GatherND specification.

func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %d2 = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %d3 = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>

  // Example 1: batch_dims = 0, full tuples.
  // CHECK: [0,  3]
  %i1 = arith.constant dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>
  %r1 = gather.gather_nd %d2[%i1] : (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2xi32>
  %u1 = tensor.cast %r1 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()

  // Example 2: batch_dims = 0, slices.
  // CHECK: {{\[}}[2,   3],
  // CHECK-NEXT: [0,   1]]
  %i2 = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %r2 = gather.gather_nd %d2[%i2] : (tensor<2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  %u2 = tensor.cast %r2 : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()

  // Example 3: batch_dims = 0, rank-3 data.
  // CHECK: {{\[}}[2,   3],
  // CHECK-NEXT: [4,   5]]
  %i3 = arith.constant dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>
  %r3 = gather.gather_nd %d3[%i3] : (tensor<2x2x2xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %u3 = tensor.cast %r3 : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()

  // Example 4: batch_dims = 0, rank-3 indices.
  // CHECK: {{\[}}{{\[}}[2,    3]],
  // CHECK-NEXT: {{\[}}[4,    5]]]
  %i4 = arith.constant dense<[[[0, 1]], [[1, 0]]]> : tensor<2x1x2xi64>
  %r4 = gather.gather_nd %d3[%i4] : (tensor<2x2x2xi32>, tensor<2x1x2xi64>) -> tensor<2x1x2xi32>
  %u4 = tensor.cast %r4 : tensor<2x1x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()

  // Example 5: batch_dims = 1.
  // CHECK: {{\[}}[2,   3],
  // CHECK-NEXT: [4,   5]]
  %i5 = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %r5 = gather.gather_nd %d3[%i5] {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  %u5 = tensor.cast %r5 : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()

  /// Negative components count from the end of their own dimension.
  // CHECK: [3,  1]
  %i6 = arith.constant dense<[[-1, -1], [-2, 1]]> : tensor<2x2xi32>
  %r6 = gather.gather_nd %d2[%i6] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2xi32>
  %u6 = tensor.cast %r6 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
  return
}
