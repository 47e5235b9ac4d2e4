// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | %run_main | FileCheck %s

// The same module through both lowerings: the affine kernels of
// gather-to-llvm, and convert-gather-to-linalg compiled by stock mlir-opt
// (upstream passes only). Both must print the same known values, computed
// by a numpy reference of docs/Semantics.md (loops over the result with the
// mode's index rule). Every op, every mode; check and unchecked with
// in-range indices (negative ones included), the others with out-of-range
// ones. The indices reach the gathers as function arguments so that no
// folding decides the result.

func.func private @printMemrefI32(tensor<*xi32>)

// CHECK: [1, 5, 1, 5, 4]
func.func @gather_1d_check(%d: tensor<5xi32>, %i: tensor<5xi64>) {
  %r = gather.gather %d[%i] : (tensor<5xi32>, tensor<5xi64>) -> tensor<5xi32>
  %u = tensor.cast %r : tensor<5xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[1, 5, 5],
// CHECK-NEXT: [6, 8, 9]]
func.func @gather_axis1_batch1_check(%d: tensor<2x5xi32>, %i: tensor<2x3xi32>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u = tensor.cast %r : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[0, 1],
// CHECK-NEXT: [0, 1]]],
// CHECK-NEXT: {{\[}}{{\[}}[10, 11],
// CHECK-NEXT: [10, 11]],
// CHECK-NEXT: {{\[}}[6, 7],
// CHECK-NEXT: [6, 7]]]]
func.func @gather_axis1_2d_indices_check(%d: tensor<2x3x2xi32>, %i: tensor<2x2xi16>) {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> tensor<2x2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[2, 0],
// CHECK-NEXT: [4, 5]]
func.func @gather_elements_axis1_check(%d: tensor<2x3xi32>, %i: tensor<2x2xi64>) {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<2x3xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [11, 8, 1]
func.func @gather_nd_check(%d: tensor<3x4xi32>, %i: tensor<3x2xi64>) {
  %r = gather.gather_nd %d[%i] : (tensor<3x4xi32>, tensor<3x2xi64>) -> tensor<3xi32>
  %u = tensor.cast %r : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[6, 7],
// CHECK-NEXT: [6, 7]]]
func.func @gather_nd_batch1_check(%d: tensor<2x3x2xi32>, %i: tensor<2x2x1xi64>) {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> tensor<2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [0, 1, 5, 1, 5, 0, 0, 0, 0]
func.func @gather_1d_fill(%d: tensor<5xi32>, %i: tensor<9xi64>) {
  %r = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<5xi32>, tensor<9xi64>) -> tensor<9xi32>
  %u = tensor.cast %r : tensor<9xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[1, 5, 0],
// CHECK-NEXT: [0, 8, 0]]
func.func @gather_axis1_batch1_fill(%d: tensor<2x5xi32>, %i: tensor<2x3xi32>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u = tensor.cast %r : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[0, 0],
// CHECK-NEXT: [0, 0]]],
// CHECK-NEXT: {{\[}}{{\[}}[10, 11],
// CHECK-NEXT: [10, 11]],
// CHECK-NEXT: {{\[}}[0, 0],
// CHECK-NEXT: [0, 0]]]]
func.func @gather_axis1_2d_indices_fill(%d: tensor<2x3x2xi32>, %i: tensor<2x2xi16>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> tensor<2x2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[2, 0],
// CHECK-NEXT: [0, 5]]
func.func @gather_elements_axis1_fill(%d: tensor<2x3xi32>, %i: tensor<2x2xi64>) {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<2x3xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [11, 8, 0]
func.func @gather_nd_fill(%d: tensor<3x4xi32>, %i: tensor<3x2xi64>) {
  %r = gather.gather_nd %d[%i] {mode = #gather<mode fill>} : (tensor<3x4xi32>, tensor<3x2xi64>) -> tensor<3xi32>
  %u = tensor.cast %r : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[0, 0],
// CHECK-NEXT: [6, 7]]]
func.func @gather_nd_batch1_fill(%d: tensor<2x3x2xi32>, %i: tensor<2x2x1xi64>) {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> tensor<2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [1, 1, 5, 1, 5, 5, 5, 1, 5]
func.func @gather_1d_clamp(%d: tensor<5xi32>, %i: tensor<9xi64>) {
  %r = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<5xi32>, tensor<9xi64>) -> tensor<9xi32>
  %u = tensor.cast %r : tensor<9xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[1, 5, 5],
// CHECK-NEXT: [6, 8, 10]]
func.func @gather_axis1_batch1_clamp(%d: tensor<2x5xi32>, %i: tensor<2x3xi32>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode clamp>} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u = tensor.cast %r : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[0, 1],
// CHECK-NEXT: [4, 5]]],
// CHECK-NEXT: {{\[}}{{\[}}[10, 11],
// CHECK-NEXT: [10, 11]],
// CHECK-NEXT: {{\[}}[6, 7],
// CHECK-NEXT: [10, 11]]]]
func.func @gather_axis1_2d_indices_clamp(%d: tensor<2x3x2xi32>, %i: tensor<2x2xi16>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> tensor<2x2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[2, 0],
// CHECK-NEXT: [5, 5]]
func.func @gather_elements_axis1_clamp(%d: tensor<2x3xi32>, %i: tensor<2x2xi64>) {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<2x3xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [11, 8, 11]
func.func @gather_nd_clamp(%d: tensor<3x4xi32>, %i: tensor<3x2xi64>) {
  %r = gather.gather_nd %d[%i] {mode = #gather<mode clamp>} : (tensor<3x4xi32>, tensor<3x2xi64>) -> tensor<3xi32>
  %u = tensor.cast %r : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[10, 11],
// CHECK-NEXT: [6, 7]]]
func.func @gather_nd_batch1_clamp(%d: tensor<2x3x2xi32>, %i: tensor<2x2x1xi64>) {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode clamp>} : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> tensor<2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [4, 1, 5, 1, 5, 1, 3, 3, 3]
func.func @gather_1d_wrap(%d: tensor<5xi32>, %i: tensor<9xi64>) {
  %r = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<5xi32>, tensor<9xi64>) -> tensor<9xi32>
  %u = tensor.cast %r : tensor<9xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[1, 5, 3],
// CHECK-NEXT: [10, 8, 6]]
func.func @gather_axis1_batch1_wrap(%d: tensor<2x5xi32>, %i: tensor<2x3xi32>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u = tensor.cast %r : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[4, 5],
// CHECK-NEXT: [0, 1]]],
// CHECK-NEXT: {{\[}}{{\[}}[10, 11],
// CHECK-NEXT: [10, 11]],
// CHECK-NEXT: {{\[}}[10, 11],
// CHECK-NEXT: [6, 7]]]]
func.func @gather_axis1_2d_indices_wrap(%d: tensor<2x3x2xi32>, %i: tensor<2x2xi16>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> tensor<2x2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[2, 2],
// CHECK-NEXT: [3, 5]]
func.func @gather_elements_axis1_wrap(%d: tensor<2x3xi32>, %i: tensor<2x2xi64>) {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x3xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [11, 8, 0]
func.func @gather_nd_wrap(%d: tensor<3x4xi32>, %i: tensor<3x2xi64>) {
  %r = gather.gather_nd %d[%i] {mode = #gather<mode wrap>} : (tensor<3x4xi32>, tensor<3x2xi64>) -> tensor<3xi32>
  %u = tensor.cast %r : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[6, 7],
// CHECK-NEXT: [6, 7]]]
func.func @gather_nd_batch1_wrap(%d: tensor<2x3x2xi32>, %i: tensor<2x2x1xi64>) {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> tensor<2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [1, 5, 1, 5, 4]
func.func @gather_1d_unchecked(%d: tensor<5xi32>, %i: tensor<5xi64>) {
  %r = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<5xi32>, tensor<5xi64>) -> tensor<5xi32>
  %u = tensor.cast %r : tensor<5xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[1, 5, 5],
// CHECK-NEXT: [6, 8, 9]]
func.func @gather_axis1_batch1_unchecked(%d: tensor<2x5xi32>, %i: tensor<2x3xi32>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode unchecked>} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u = tensor.cast %r : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[0, 1],
// CHECK-NEXT: [0, 1]]],
// CHECK-NEXT: {{\[}}{{\[}}[10, 11],
// CHECK-NEXT: [10, 11]],
// CHECK-NEXT: {{\[}}[6, 7],
// CHECK-NEXT: [6, 7]]]]
func.func @gather_axis1_2d_indices_unchecked(%d: tensor<2x3x2xi32>, %i: tensor<2x2xi16>) {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> tensor<2x2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[2, 0],
// CHECK-NEXT: [4, 5]]
func.func @gather_elements_axis1_unchecked(%d: tensor<2x3xi32>, %i: tensor<2x2xi64>) {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<2x3xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: [11, 8, 1]
func.func @gather_nd_unchecked(%d: tensor<3x4xi32>, %i: tensor<3x2xi64>) {
  %r = gather.gather_nd %d[%i] {mode = #gather<mode unchecked>} : (tensor<3x4xi32>, tensor<3x2xi64>) -> tensor<3xi32>
  %u = tensor.cast %r : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}{{\[}}[4, 5],
// CHECK-NEXT: [4, 5]],
// CHECK-NEXT: {{\[}}[6, 7],
// CHECK-NEXT: [6, 7]]]
func.func @gather_nd_batch1_unchecked(%d: tensor<2x3x2xi32>, %i: tensor<2x2x1xi64>) {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode unchecked>} : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> tensor<2x2x2xi32>
  %u = tensor.cast %r : tensor<2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// CHECK: {{\[}}[3, 1],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [0, 1]]
func.func @gather_elements_axis0_longer_check(%d: tensor<2x3xi32>, %i: tensor<3x2xi32>) {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  %u = tensor.cast %r : tensor<3x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %d_gather_1d_check = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i_gather_1d_check = arith.constant dense<[-5, -1, 0, 4, 3]> : tensor<5xi64>
  call @gather_1d_check(%d_gather_1d_check, %i_gather_1d_check) : (tensor<5xi32>, tensor<5xi64>) -> ()
  %d_gather_axis1_batch1_check = arith.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]> : tensor<2x5xi32>
  %i_gather_axis1_batch1_check = arith.constant dense<[[0, -1, 4], [-5, 2, 3]]> : tensor<2x3xi32>
  call @gather_axis1_batch1_check(%d_gather_axis1_batch1_check, %i_gather_axis1_batch1_check) : (tensor<2x5xi32>, tensor<2x3xi32>) -> ()
  %d_gather_axis1_2d_indices_check = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_axis1_2d_indices_check = arith.constant dense<[[2, -1], [-3, 0]]> : tensor<2x2xi16>
  call @gather_axis1_2d_indices_check(%d_gather_axis1_2d_indices_check, %i_gather_axis1_2d_indices_check) : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> ()
  %d_gather_elements_axis1_check = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %i_gather_elements_axis1_check = arith.constant dense<[[2, -3], [1, -1]]> : tensor<2x2xi64>
  call @gather_elements_axis1_check(%d_gather_elements_axis1_check, %i_gather_elements_axis1_check) : (tensor<2x3xi32>, tensor<2x2xi64>) -> ()
  %d_gather_nd_check = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %i_gather_nd_check = arith.constant dense<[[2, 3], [-1, -4], [0, 1]]> : tensor<3x2xi64>
  call @gather_nd_check(%d_gather_nd_check, %i_gather_nd_check) : (tensor<3x4xi32>, tensor<3x2xi64>) -> ()
  %d_gather_nd_batch1_check = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_nd_batch1_check = arith.constant dense<[[[2], [-1]], [[-3], [0]]]> : tensor<2x2x1xi64>
  call @gather_nd_batch1_check(%d_gather_nd_batch1_check, %i_gather_nd_batch1_check) : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> ()
  %d_gather_1d_fill = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i_gather_1d_fill = arith.constant dense<[-7, -5, -1, 0, 4, 5, 12, -9223372036854775808, 9223372036854775807]> : tensor<9xi64>
  call @gather_1d_fill(%d_gather_1d_fill, %i_gather_1d_fill) : (tensor<5xi32>, tensor<9xi64>) -> ()
  %d_gather_axis1_batch1_fill = arith.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]> : tensor<2x5xi32>
  %i_gather_axis1_batch1_fill = arith.constant dense<[[0, -1, 7], [-6, 2, 5]]> : tensor<2x3xi32>
  call @gather_axis1_batch1_fill(%d_gather_axis1_batch1_fill, %i_gather_axis1_batch1_fill) : (tensor<2x5xi32>, tensor<2x3xi32>) -> ()
  %d_gather_axis1_2d_indices_fill = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_axis1_2d_indices_fill = arith.constant dense<[[2, -1], [-4, 3]]> : tensor<2x2xi16>
  call @gather_axis1_2d_indices_fill(%d_gather_axis1_2d_indices_fill, %i_gather_axis1_2d_indices_fill) : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> ()
  %d_gather_elements_axis1_fill = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %i_gather_elements_axis1_fill = arith.constant dense<[[2, -4], [3, -1]]> : tensor<2x2xi64>
  call @gather_elements_axis1_fill(%d_gather_elements_axis1_fill, %i_gather_elements_axis1_fill) : (tensor<2x3xi32>, tensor<2x2xi64>) -> ()
  %d_gather_nd_fill = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %i_gather_nd_fill = arith.constant dense<[[2, 3], [-1, -4], [3, 4]]> : tensor<3x2xi64>
  call @gather_nd_fill(%d_gather_nd_fill, %i_gather_nd_fill) : (tensor<3x4xi32>, tensor<3x2xi64>) -> ()
  %d_gather_nd_batch1_fill = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_nd_batch1_fill = arith.constant dense<[[[2], [-1]], [[3], [0]]]> : tensor<2x2x1xi64>
  call @gather_nd_batch1_fill(%d_gather_nd_batch1_fill, %i_gather_nd_batch1_fill) : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> ()
  %d_gather_1d_clamp = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i_gather_1d_clamp = arith.constant dense<[-7, -5, -1, 0, 4, 5, 12, -9223372036854775808, 9223372036854775807]> : tensor<9xi64>
  call @gather_1d_clamp(%d_gather_1d_clamp, %i_gather_1d_clamp) : (tensor<5xi32>, tensor<9xi64>) -> ()
  %d_gather_axis1_batch1_clamp = arith.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]> : tensor<2x5xi32>
  %i_gather_axis1_batch1_clamp = arith.constant dense<[[0, -1, 7], [-6, 2, 5]]> : tensor<2x3xi32>
  call @gather_axis1_batch1_clamp(%d_gather_axis1_batch1_clamp, %i_gather_axis1_batch1_clamp) : (tensor<2x5xi32>, tensor<2x3xi32>) -> ()
  %d_gather_axis1_2d_indices_clamp = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_axis1_2d_indices_clamp = arith.constant dense<[[2, -1], [-4, 3]]> : tensor<2x2xi16>
  call @gather_axis1_2d_indices_clamp(%d_gather_axis1_2d_indices_clamp, %i_gather_axis1_2d_indices_clamp) : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> ()
  %d_gather_elements_axis1_clamp = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %i_gather_elements_axis1_clamp = arith.constant dense<[[2, -4], [3, -1]]> : tensor<2x2xi64>
  call @gather_elements_axis1_clamp(%d_gather_elements_axis1_clamp, %i_gather_elements_axis1_clamp) : (tensor<2x3xi32>, tensor<2x2xi64>) -> ()
  %d_gather_nd_clamp = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %i_gather_nd_clamp = arith.constant dense<[[2, 3], [-1, -4], [3, 4]]> : tensor<3x2xi64>
  call @gather_nd_clamp(%d_gather_nd_clamp, %i_gather_nd_clamp) : (tensor<3x4xi32>, tensor<3x2xi64>) -> ()
  %d_gather_nd_batch1_clamp = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_nd_batch1_clamp = arith.constant dense<[[[2], [-1]], [[3], [0]]]> : tensor<2x2x1xi64>
  call @gather_nd_batch1_clamp(%d_gather_nd_batch1_clamp, %i_gather_nd_batch1_clamp) : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> ()
  %d_gather_1d_wrap = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i_gather_1d_wrap = arith.constant dense<[-7, -5, -1, 0, 4, 5, 12, -9223372036854775808, 9223372036854775807]> : tensor<9xi64>
  call @gather_1d_wrap(%d_gather_1d_wrap, %i_gather_1d_wrap) : (tensor<5xi32>, tensor<9xi64>) -> ()
  %d_gather_axis1_batch1_wrap = arith.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]> : tensor<2x5xi32>
  %i_gather_axis1_batch1_wrap = arith.constant dense<[[0, -1, 7], [-6, 2, 5]]> : tensor<2x3xi32>
  call @gather_axis1_batch1_wrap(%d_gather_axis1_batch1_wrap, %i_gather_axis1_batch1_wrap) : (tensor<2x5xi32>, tensor<2x3xi32>) -> ()
  %d_gather_axis1_2d_indices_wrap = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_axis1_2d_indices_wrap = arith.constant dense<[[2, -1], [-4, 3]]> : tensor<2x2xi16>
  call @gather_axis1_2d_indices_wrap(%d_gather_axis1_2d_indices_wrap, %i_gather_axis1_2d_indices_wrap) : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> ()
  %d_gather_elements_axis1_wrap = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %i_gather_elements_axis1_wrap = arith.constant dense<[[2, -4], [3, -1]]> : tensor<2x2xi64>
  call @gather_elements_axis1_wrap(%d_gather_elements_axis1_wrap, %i_gather_elements_axis1_wrap) : (tensor<2x3xi32>, tensor<2x2xi64>) -> ()
  %d_gather_nd_wrap = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %i_gather_nd_wrap = arith.constant dense<[[2, 3], [-1, -4], [3, 4]]> : tensor<3x2xi64>
  call @gather_nd_wrap(%d_gather_nd_wrap, %i_gather_nd_wrap) : (tensor<3x4xi32>, tensor<3x2xi64>) -> ()
  %d_gather_nd_batch1_wrap = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_nd_batch1_wrap = arith.constant dense<[[[2], [-1]], [[3], [0]]]> : tensor<2x2x1xi64>
  call @gather_nd_batch1_wrap(%d_gather_nd_batch1_wrap, %i_gather_nd_batch1_wrap) : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> ()
  %d_gather_1d_unchecked = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i_gather_1d_unchecked = arith.constant dense<[-5, -1, 0, 4, 3]> : tensor<5xi64>
  call @gather_1d_unchecked(%d_gather_1d_unchecked, %i_gather_1d_unchecked) : (tensor<5xi32>, tensor<5xi64>) -> ()
  %d_gather_axis1_batch1_unchecked = arith.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]> : tensor<2x5xi32>
  %i_gather_axis1_batch1_unchecked = arith.constant dense<[[0, -1, 4], [-5, 2, 3]]> : tensor<2x3xi32>
  call @gather_axis1_batch1_unchecked(%d_gather_axis1_batch1_unchecked, %i_gather_axis1_batch1_unchecked) : (tensor<2x5xi32>, tensor<2x3xi32>) -> ()
  %d_gather_axis1_2d_indices_unchecked = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_axis1_2d_indices_unchecked = arith.constant dense<[[2, -1], [-3, 0]]> : tensor<2x2xi16>
  call @gather_axis1_2d_indices_unchecked(%d_gather_axis1_2d_indices_unchecked, %i_gather_axis1_2d_indices_unchecked) : (tensor<2x3x2xi32>, tensor<2x2xi16>) -> ()
  %d_gather_elements_axis1_unchecked = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %i_gather_elements_axis1_unchecked = arith.constant dense<[[2, -3], [1, -1]]> : tensor<2x2xi64>
  call @gather_elements_axis1_unchecked(%d_gather_elements_axis1_unchecked, %i_gather_elements_axis1_unchecked) : (tensor<2x3xi32>, tensor<2x2xi64>) -> ()
  %d_gather_nd_unchecked = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %i_gather_nd_unchecked = arith.constant dense<[[2, 3], [-1, -4], [0, 1]]> : tensor<3x2xi64>
  call @gather_nd_unchecked(%d_gather_nd_unchecked, %i_gather_nd_unchecked) : (tensor<3x4xi32>, tensor<3x2xi64>) -> ()
  %d_gather_nd_batch1_unchecked = arith.constant dense<[[[0, 1], [2, 3], [4, 5]], [[6, 7], [8, 9], [10, 11]]]> : tensor<2x3x2xi32>
  %i_gather_nd_batch1_unchecked = arith.constant dense<[[[2], [-1]], [[-3], [0]]]> : tensor<2x2x1xi64>
  call @gather_nd_batch1_unchecked(%d_gather_nd_batch1_unchecked, %i_gather_nd_batch1_unchecked) : (tensor<2x3x2xi32>, tensor<2x2x1xi64>) -> ()
  %d_gather_elements_axis0_longer_check = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %i_gather_elements_axis0_longer_check = arith.constant dense<[[1, 0], [-1, 1], [0, -2]]> : tensor<3x2xi32>
  call @gather_elements_axis0_longer_check(%d_gather_elements_axis0_longer_check, %i_gather_elements_axis0_longer_check) : (tensor<2x3xi32>, tensor<3x2xi32>) -> ()
  return
}
