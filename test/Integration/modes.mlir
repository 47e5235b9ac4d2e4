// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="prefetch-distance=1 gather-loads=scalar" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="gather-loads=element" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="vectorize=false" | %run_main | FileCheck %s

// Every mode with negative and out-of-range indices, including INT64_MIN and
// INT64_MAX, for each op. Expected values follow docs/Semantics.md (numpy's
// take(mode="clip"/"wrap") for clamp/wrap).

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<*xi32>) {
  call @printMemrefI32(%t) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %v = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i = arith.constant dense<[-7, -5, -1, 0, 4, 5, 12, -9223372036854775808, 9223372036854775807]> : tensor<9xi64>

  // CHECK: [0,  1,  5,  1,  5,  0,  0,  0,  0]
  %fill = gather.gather %v[%i] {mode = #gather<mode fill>} : (tensor<5xi32>, tensor<9xi64>) -> tensor<9xi32>
  %u0 = tensor.cast %fill : tensor<9xi32> to tensor<*xi32>
  call @print(%u0) : (tensor<*xi32>) -> ()
  // CHECK: [1,  1,  5,  1,  5,  5,  5,  1,  5]
  %clamp = gather.gather %v[%i] {mode = #gather<mode clamp>} : (tensor<5xi32>, tensor<9xi64>) -> tensor<9xi32>
  %u1 = tensor.cast %clamp : tensor<9xi32> to tensor<*xi32>
  call @print(%u1) : (tensor<*xi32>) -> ()
  // CHECK: [4,  1,  5,  1,  5,  1,  3,  3,  3]
  %wrap = gather.gather %v[%i] {mode = #gather<mode wrap>} : (tensor<5xi32>, tensor<9xi64>) -> tensor<9xi32>
  %u2 = tensor.cast %wrap : tensor<9xi32> to tensor<*xi32>
  call @print(%u2) : (tensor<*xi32>) -> ()

  // In-range negative indices in check and unchecked mode.
  // CHECK: [1,  5,  1,  5,  4]
  // CHECK: [1,  5,  1,  5,  4]
  %ok = arith.constant dense<[-5, -1, 0, 4, 3]> : tensor<5xi8>
  %check = gather.gather %v[%ok] : (tensor<5xi32>, tensor<5xi8>) -> tensor<5xi32>
  %u3 = tensor.cast %check : tensor<5xi32> to tensor<*xi32>
  call @print(%u3) : (tensor<*xi32>) -> ()
  %unchecked = gather.gather %v[%ok] {mode = #gather<mode unchecked>} : (tensor<5xi32>, tensor<5xi8>) -> tensor<5xi32>
  %u4 = tensor.cast %unchecked : tensor<5xi32> to tensor<*xi32>
  call @print(%u4) : (tensor<*xi32>) -> ()

  /// Whole rows (8 + 2 elements: a full vector and a masked tail) are
  /// zero-filled for out-of-range indices.
  // CHECK: {{\[}}[20,   21,   22,   23,   24,   25,   26,   27,   28,   29],
  // CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
  // CHECK-NEXT: [0,   1,   2,   3,   4,   5,   6,   7,   8,   9],
  // CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0,   0,   0,   0]]
  %rows = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19], [20, 21, 22, 23, 24, 25, 26, 27, 28, 29]]> : tensor<3x10xi32>
  %ri = arith.constant dense<[2, -4, 0, 3]> : tensor<4xi32>
  %rf = gather.gather %rows[%ri] {mode = #gather<mode fill>} : (tensor<3x10xi32>, tensor<4xi32>) -> tensor<4x10xi32>
  %u5 = tensor.cast %rf : tensor<4x10xi32> to tensor<*xi32>
  call @print(%u5) : (tensor<*xi32>) -> ()

  // gather_elements along axis 1, fill / clamp / wrap.
  // CHECK: {{\[}}[0,   0,   3],
  // CHECK-NEXT: [0,   4,   6]]
  // CHECK: {{\[}}[1,   3,   3],
  // CHECK-NEXT: [6,   4,   6]]
  // CHECK: {{\[}}[3,   1,   3],
  // CHECK-NEXT: [5,   4,   6]]
  %e = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %ei = arith.constant dense<[[-4, 3, -1], [7, -3, 2]]> : tensor<2x3xi16>
  %ef = gather.gather_elements %e[%ei] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<2x3xi32>, tensor<2x3xi16>) -> tensor<2x3xi32>
  %ec = gather.gather_elements %e[%ei] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<2x3xi32>, tensor<2x3xi16>) -> tensor<2x3xi32>
  %ew = gather.gather_elements %e[%ei] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x3xi32>, tensor<2x3xi16>) -> tensor<2x3xi32>
  %u6 = tensor.cast %ef : tensor<2x3xi32> to tensor<*xi32>
  %u7 = tensor.cast %ec : tensor<2x3xi32> to tensor<*xi32>
  %u8 = tensor.cast %ew : tensor<2x3xi32> to tensor<*xi32>
  call @print(%u6) : (tensor<*xi32>) -> ()
  call @print(%u7) : (tensor<*xi32>) -> ()
  call @print(%u8) : (tensor<*xi32>) -> ()

  // gather_nd with each component checked against its own dimension.
  // CHECK: [3,  0,  0]
  // CHECK: [3,  4,  1]
  // CHECK: [3,  2,  2]
  %n = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %ni = arith.constant dense<[[-1, 0], [2, 1], [0, -3]]> : tensor<3x2xindex>
  %nf = gather.gather_nd %n[%ni] {mode = #gather<mode fill>} : (tensor<2x2xi32>, tensor<3x2xindex>) -> tensor<3xi32>
  %nc = gather.gather_nd %n[%ni] {mode = #gather<mode clamp>} : (tensor<2x2xi32>, tensor<3x2xindex>) -> tensor<3xi32>
  %nw = gather.gather_nd %n[%ni] {mode = #gather<mode wrap>} : (tensor<2x2xi32>, tensor<3x2xindex>) -> tensor<3xi32>
  %u9 = tensor.cast %nf : tensor<3xi32> to tensor<*xi32>
  %u10 = tensor.cast %nc : tensor<3xi32> to tensor<*xi32>
  %u11 = tensor.cast %nw : tensor<3xi32> to tensor<*xi32>
  call @print(%u9) : (tensor<*xi32>) -> ()
  call @print(%u10) : (tensor<*xi32>) -> ()
  call @print(%u11) : (tensor<*xi32>) -> ()
  return
}
