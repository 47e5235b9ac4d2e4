// RUN: gather-opt %s --gather-to-llvm="gather-loads=vector" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="gather-loads=scalar" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="gather-loads=element" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=vector" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=scalar" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="column-block-min-bytes=0 gather-loads=vector" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="column-block-min-bytes=0 gather-loads=scalar" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=scalar" > %t.rows.mlir
// RUN: not %mlir_run -e bad_in_tail %t.rows.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: gather-opt %s --gather-to-llvm="column-block-min-bytes=0 gather-loads=vector" > %t.blocks.mlir
// RUN: not %mlir_run -e bad_in_tail %t.blocks.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true parallel=true parallel-min-bytes=0" > %t.threads.mlir
// RUN: not %mlir_run_omp -e bad_in_slab %t.threads.mlir 2>&1 | FileCheck %s --check-prefix=SLAB
// RUN: gather-opt %s --gather-to-llvm="validate-rows=false parallel=true parallel-min-bytes=0" > %t.scan.mlir
// RUN: not %mlir_run_omp -e bad_in_slab %t.scan.mlir 2>&1 | FileCheck %s --check-prefix=SLAB

/// gather_elements along an axis before the last gathers a result row (the
/// last dim) across the data rows of the axis: 3x43 f64, in every way rows
/// read (vector gathers, one scalar load a lane, one element an
/// iteration), checked as they are gathered, in column blocks of 32
/// elements (a piece of 32 and one of 11: full vectors and a masked tail)
/// and on threads. data[i, k] = 100 i + k.

func.func private @printMemrefF64(tensor<*xf64>)

func.func @data() -> tensor<?x?xf64> {
  %c3 = arith.constant 3 : index
  %c43 = arith.constant 43 : index
  %d = tensor.generate %c3, %c43 {
  ^bb0(%i: index, %k: index):
    %c100 = arith.constant 100 : index
    %h = arith.muli %i, %c100 : index
    %v = arith.addi %h, %k : index
    %w = arith.index_cast %v : index to i64
    %f = arith.sitofp %w : i64 to f64
    tensor.yield %f : f64
  } : tensor<?x?xf64>
  return %d : tensor<?x?xf64>
}

func.func @print(%t: tensor<?x?xf64>) {
  %u = tensor.cast %t : tensor<?x?xf64> to tensor<*xf64>
  call @printMemrefF64(%u) : (tensor<*xf64>) -> ()
  return
}

func.func @check(%d: tensor<?x?xf64>, %i: tensor<?x?xi64>) -> tensor<?x?xf64> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64, mode = #gather<mode check>} : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

func.func @unchecked(%d: tensor<?x?xf64>, %i: tensor<?x?xi64>) -> tensor<?x?xf64> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64, mode = #gather<mode unchecked>} : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

func.func @fill(%d: tensor<?x?xf64>, %i: tensor<?x?xi64>) -> tensor<?x?xf64> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64, mode = #gather<mode fill>} : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

func.func @clamp(%d: tensor<?x?xf64>, %i: tensor<?x?xi64>) -> tensor<?x?xf64> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64, mode = #gather<mode clamp>} : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

func.func @wrap(%d: tensor<?x?xf64>, %i: tensor<?x?xi64>) -> tensor<?x?xf64> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

func.func @main() {
  %d = call @data() : () -> tensor<?x?xf64>
  %valid_c = arith.constant dense<[[-1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1], [-2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0]]> : tensor<2x43xi64>
  %valid = tensor.cast %valid_c : tensor<2x43xi64> to tensor<?x?xi64>
  %wild_c = arith.constant dense<[[-1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1, 0, 1, 2, 3, -1, 0, 1], [-7, -5, -3, -1, 1, 3, 5, -7, -5, -3, -1, 1, 3, 5, -7, -5, -3, -1, 1, 3, 5, -7, -5, -3, -1, 1, 3, 5, -7, -5, -3, -1, 1, 3, 5, -7, -5, -3, -1, 1, 3, 5, -7]]> : tensor<2x43xi64>
  %wild = tensor.cast %wild_c : tensor<2x43xi64> to tensor<?x?xi64>

  // CHECK: {{\[}}[200, 1, 102, 203, 4, 105, 206, 7, 108, 209, 10, 111, 212, 13, 114, 215, 16, 117, 218, 19, 120, 221, 22, 123, 224, 25, 126, 227, 28, 129, 230, 31, 132, 233, 34, 135, 236, 37, 138, 239, 40, 141, 242],
  // CHECK-NEXT: [100, 201, 2, 103, 104, 205, 6, 107, 108, 209, 10, 111, 112, 213, 14, 115, 116, 217, 18, 119, 120, 221, 22, 123, 124, 225, 26, 127, 128, 229, 30, 131, 132, 233, 34, 135, 136, 237, 38, 139, 140, 241, 42]]
  %r0 = call @check(%d, %valid) : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  call @print(%r0) : (tensor<?x?xf64>) -> ()
  // CHECK: {{\[}}[200, 1, 102, 203, 4, 105, 206, 7, 108, 209, 10, 111, 212, 13, 114, 215, 16, 117, 218, 19, 120, 221, 22, 123, 224, 25, 126, 227, 28, 129, 230, 31, 132, 233, 34, 135, 236, 37, 138, 239, 40, 141, 242],
  // CHECK-NEXT: [100, 201, 2, 103, 104, 205, 6, 107, 108, 209, 10, 111, 112, 213, 14, 115, 116, 217, 18, 119, 120, 221, 22, 123, 124, 225, 26, 127, 128, 229, 30, 131, 132, 233, 34, 135, 136, 237, 38, 139, 140, 241, 42]]
  %r1 = call @unchecked(%d, %valid) : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  call @print(%r1) : (tensor<?x?xf64>) -> ()
  // CHECK: {{\[}}[200, 1, 102, 203, 0, 205, 6, 107, 208, 0, 210, 11, 112, 213, 0, 215, 16, 117, 218, 0, 220, 21, 122, 223, 0, 225, 26, 127, 228, 0, 230, 31, 132, 233, 0, 235, 36, 137, 238, 0, 240, 41, 142],
  // CHECK-NEXT: [0, 0, 2, 203, 104, 0, 0, 0, 0, 9, 210, 111, 0, 0, 0, 0, 16, 217, 118, 0, 0, 0, 0, 23, 224, 125, 0, 0, 0, 0, 30, 231, 132, 0, 0, 0, 0, 37, 238, 139, 0, 0, 0]]
  %r2 = call @fill(%d, %wild) : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  call @print(%r2) : (tensor<?x?xf64>) -> ()
  // CHECK: {{\[}}[200, 1, 102, 203, 204, 205, 6, 107, 208, 209, 210, 11, 112, 213, 214, 215, 16, 117, 218, 219, 220, 21, 122, 223, 224, 225, 26, 127, 228, 229, 230, 31, 132, 233, 234, 235, 36, 137, 238, 239, 240, 41, 142],
  // CHECK-NEXT: [0, 1, 2, 203, 104, 205, 206, 7, 8, 9, 210, 111, 212, 213, 14, 15, 16, 217, 118, 219, 220, 21, 22, 23, 224, 125, 226, 227, 28, 29, 30, 231, 132, 233, 234, 35, 36, 37, 238, 139, 240, 241, 42]]
  %r3 = call @clamp(%d, %wild) : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  call @print(%r3) : (tensor<?x?xf64>) -> ()
  // CHECK: {{\[}}[200, 1, 102, 203, 4, 205, 6, 107, 208, 9, 210, 11, 112, 213, 14, 215, 16, 117, 218, 19, 220, 21, 122, 223, 24, 225, 26, 127, 228, 29, 230, 31, 132, 233, 34, 235, 36, 137, 238, 39, 240, 41, 142],
  // CHECK-NEXT: [200, 101, 2, 203, 104, 5, 206, 207, 108, 9, 210, 111, 12, 213, 214, 115, 16, 217, 118, 19, 220, 221, 122, 23, 224, 125, 26, 227, 228, 129, 30, 231, 132, 33, 234, 235, 136, 37, 238, 139, 40, 241, 242]]
  %r4 = call @wrap(%d, %wild) : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  call @print(%r4) : (tensor<?x?xf64>) -> ()
  return
}

/// A bad index among the last elements of the second row: reported with
/// its value, whichever way its row was gathered.
// TAIL: index 3 is out of range [-3, 2] for data dimension 0 of size 3
func.func @bad_in_tail() {
  %d = call @data() : () -> tensor<?x?xf64>
  %valid_c = arith.constant dense<[[-1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1], [-2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0, 1, -2, -1, 0]]> : tensor<2x43xi64>
  %c1 = arith.constant 1 : index
  %c41 = arith.constant 41 : index
  %c3 = arith.constant 3 : i64
  %bad_c = tensor.insert %c3 into %valid_c[%c1, %c41] : tensor<2x43xi64>
  %bad = tensor.cast %bad_c : tensor<2x43xi64> to tensor<?x?xi64>
  %r = call @check(%d, %bad) : (tensor<?x?xf64>, tensor<?x?xi64>) -> tensor<?x?xf64>
  call @print(%r) : (tensor<?x?xf64>) -> ()
  return
}

/// On threads, or scanned first on threads: of the two bad indices of
/// 2x3x5 indices, at (1, 1, 4) and (1, 2, 0), the first in row-major order
/// is reported, whichever thread met it.
// SLAB: index 9 is out of range [-3, 2] for data dimension 0 of size 3
func.func @check3(%d: tensor<?x?x?xf64>, %i: tensor<?x?x?xi64>) -> tensor<?x?x?xf64> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<?x?x?xf64>, tensor<?x?x?xi64>) -> tensor<?x?x?xf64>
  return %r : tensor<?x?x?xf64>
}

func.func @bad_in_slab() {
  %d_c = arith.constant dense<1.0> : tensor<3x3x5xf64>
  %d = tensor.cast %d_c : tensor<3x3x5xf64> to tensor<?x?x?xf64>
  %i_c = arith.constant dense<[[[0, 1, 2, 0, 1], [2, 0, 1, 2, 0], [1, 2, 0, 1, 2]],
                               [[0, 1, 2, 0, 1], [2, 0, 1, 2, 9], [-9, 2, 0, 1, 2]]]> : tensor<2x3x5xi64>
  %i = tensor.cast %i_c : tensor<2x3x5xi64> to tensor<?x?x?xi64>
  %r = call @check3(%d, %i) : (tensor<?x?x?xf64>, tensor<?x?x?xi64>) -> tensor<?x?x?xf64>
  %u = tensor.cast %r : tensor<?x?x?xf64> to tensor<*xf64>
  call @printMemrefF64(%u) : (tensor<*xf64>) -> ()
  return
}
