// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: %mlir_run -e main %t.mlir | FileCheck %s
// RUN: not %mlir_run -e elements_ranks %t.mlir 2>&1 | FileCheck %s --check-prefix=RANKS
// RUN: not %mlir_run -e nd_tuple_too_long %t.mlir 2>&1 | FileCheck %s --check-prefix=TUPLE
// RUN: gather-opt %s --gather-to-llvm="max-unranked-rank=1" > %t.max1.mlir
// RUN: not %mlir_run -e main %t.max1.mlir 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: gather-opt %s --gather-dispatch-unranked="max-rank=2" | FileCheck %s --check-prefix=IR

/// Gathers on unranked tensors are dispatched on the run-time ranks: one
/// ranked kernel per rank pair the op's rules accept, up to a maximum rank;
/// other ranks are a run-time error naming the ranks.

// IR-LABEL: func.func @gather_unranked
// IR: tensor.rank
// IR: scf.index_switch
// IR: case 3 {
// IR: case 4 {
// IR: case 5 {
// IR: case 8 {
// IR: default {
// IR: call @gather_mlir_shape_error

/// printMemrefF32 only reads (external functions are otherwise assumed to write).
func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"})

func.func @gather_unranked(%d: tensor<*xf32>, %i: tensor<*xi64>) -> tensor<*xf32> {
  %r = gather.gather %d[%i] {axis = -1 : i64} : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

func.func @elements_unranked(%d: tensor<*xf32>, %i: tensor<*xi64>) -> tensor<*xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

func.func @nd_unranked(%d: tensor<*xf32>, %i: tensor<*xi64>) -> tensor<*xf32> {
  %r = gather.gather_nd %d[%i] : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

func.func @data() -> tensor<*xf32> {
  %d = arith.constant dense<[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0]]> : tensor<3x3xf32>
  %u = tensor.cast %d : tensor<3x3xf32> to tensor<*xf32>
  return %u : tensor<*xf32>
}

// CHECK: rank = 2 offset = 0 sizes = [3, 2]
// CHECK-NEXT: {{\[\[}}2,   0],
// CHECK-NEXT: [12,   10],
// CHECK-NEXT: [22,   20]]
// CHECK: rank = 2 offset = 0 sizes = [3, 1]
// CHECK-NEXT: {{\[\[}}1],
// CHECK-NEXT: [12],
// CHECK-NEXT: [20]]
// CHECK: rank = 1 offset = 0 sizes = [2]
// CHECK-NEXT: [10,  21]
// CHECK: rank = 2 offset = 0 sizes = [1, 3]
// CHECK-NEXT: {{\[\[}}20,   21,   22]]
func.func @main() {
  %d = call @data() : () -> tensor<*xf32>
  // gather along the last axis with 1-D indices.
  %c = arith.constant dense<[2, -3]> : tensor<2xi64>
  %i = tensor.cast %c : tensor<2xi64> to tensor<*xi64>
  %r = call @gather_unranked(%d, %i) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  call @printMemrefF32(%r) : (tensor<*xf32>) -> ()
  // gather_elements along axis 1.
  %ce = arith.constant dense<[[1], [2], [0]]> : tensor<3x1xi64>
  %ie = tensor.cast %ce : tensor<3x1xi64> to tensor<*xi64>
  %re = call @elements_unranked(%d, %ie) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  call @printMemrefF32(%re) : (tensor<*xf32>) -> ()
  // gather_nd with pairs: the tuple length is known only at run time.
  %cn = arith.constant dense<[[1, 0], [2, 1]]> : tensor<2x2xi64>
  %in = tensor.cast %cn : tensor<2x2xi64> to tensor<*xi64>
  %rn = call @nd_unranked(%d, %in) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  call @printMemrefF32(%rn) : (tensor<*xf32>) -> ()
  // gather_nd with 1-tuples: rows.
  %c1 = arith.constant dense<[[2]]> : tensor<1x1xi64>
  %i1 = tensor.cast %c1 : tensor<1x1xi64> to tensor<*xi64>
  %r1 = call @nd_unranked(%d, %i1) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  call @printMemrefF32(%r1) : (tensor<*xf32>) -> ()
  return
}

// RANKS: error: gather.gather_elements: data of rank 2 and indices of rank 1 do not satisfy the op's rank rules for its attributes
// RANKS-NOT: Memref
func.func @elements_ranks() {
  %d = call @data() : () -> tensor<*xf32>
  %c = arith.constant dense<[1]> : tensor<1xi64>
  %i = tensor.cast %c : tensor<1xi64> to tensor<*xi64>
  %r = call @elements_unranked(%d, %i) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  call @printMemrefF32(%r) : (tensor<*xf32>) -> ()
  return
}

// TUPLE: error: gather.gather_nd: data of rank 2 and indices of rank 2 do not satisfy the op's rank rules for its attributes
// TUPLE-NOT: Memref
func.func @nd_tuple_too_long() {
  %d = call @data() : () -> tensor<*xf32>
  %c = arith.constant dense<[[0, 0, 0]]> : tensor<1x3xi64>
  %i = tensor.cast %c : tensor<1x3xi64> to tensor<*xi64>
  %r = call @nd_unranked(%d, %i) : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  call @printMemrefF32(%r) : (tensor<*xf32>) -> ()
  return
}

// LIMIT: error: gather.gather: unranked operands of rank 2 (data) and 1 (indices) exceed the maximum rank 1 the lowering dispatches on
// LIMIT-NOT: Memref
