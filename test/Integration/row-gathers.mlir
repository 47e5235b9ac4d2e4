// RUN: gather-opt %s --gather-to-llvm="gather-loads=scalar" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="gather-loads=vector" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=scalar" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=vector" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="gather-loads=element" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=element" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="vectorize=false" | %run_main | FileCheck %s
/// check mode's failures: the first bad index in a full vector (another
/// follows in the same row), one among a row's last elements, and any index
/// along an empty axis.
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=scalar" > %t.scalar.mlir
// RUN: not %mlir_run -e bad_in_vector %t.scalar.mlir 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %mlir_run -e bad_in_tail %t.scalar.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: not %mlir_run -e check_empty_axis %t.scalar.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=vector" > %t.vector.mlir
// RUN: not %mlir_run -e bad_in_vector %t.vector.mlir 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %mlir_run -e bad_in_tail %t.vector.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: not %mlir_run -e check_empty_axis %t.vector.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true gather-loads=element" > %t.element.mlir
// RUN: not %mlir_run -e bad_in_vector %t.element.mlir 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %mlir_run -e bad_in_tail %t.element.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: not %mlir_run -e check_empty_axis %t.element.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true parallel=true parallel-min-bytes=0" > %t.threads.mlir
// RUN: not %mlir_run_omp -e bad_in_vector %t.threads.mlir 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %mlir_run_omp -e bad_in_tail %t.threads.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: not %mlir_run_omp -e bad_in_pieces %t.threads.mlir 2>&1 | FileCheck %s --check-prefix=PIECES
// RUN: not %mlir_run -e bad_in_pieces %t.vector.mlir 2>&1 | FileCheck %s --check-prefix=PIECES
// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: not %mlir_run -e bad_in_vector %t.mlir 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %mlir_run -e bad_in_tail %t.mlir 2>&1 | FileCheck %s --check-prefix=TAIL
// RUN: not %mlir_run -e check_empty_axis %t.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY

// Gathers along the last axis, which read rows of data at a row of indices:
// rows of 11 results (a full vector and a partial one), every mode, indices
// out of range on both sides, dims known only at run time.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @check(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @fill(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @clamp(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @wrap(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @unchecked(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
/// gather along the last axis: each result row reads one data row.
func.func @gather_last(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @data() -> tensor<?x?xf32> {
  %m = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0], [10.0, 11.0, 12.0, 13.0, 14.0]]> : tensor<2x5xf32>
  %d = tensor.cast %m : tensor<2x5xf32> to tensor<?x?xf32>
  return %d : tensor<?x?xf32>
}

func.func @main() {
  %d = call @data() : () -> tensor<?x?xf32>
  %good_c = arith.constant dense<[[0, 1, 2, 3, 4, -1, -5, 3, 2, 1, 0], [4, 3, 2, 1, 0, -2, -3, -4, 1, 2, 3]]> : tensor<2x11xi32>
  %good = tensor.cast %good_c : tensor<2x11xi32> to tensor<?x?xi32>
  %wild_c = arith.constant dense<[[0, 1, 2, 3, 4, -1, -5, 7, -7, 100, -100], [4, 3, 2, 1, 0, -2, 5, 6, -6, 9, -9]]> : tensor<2x11xi32>
  %wild = tensor.cast %wild_c : tensor<2x11xi32> to tensor<?x?xi32>

  // CHECK: {{\[}}[0,   1,   2,   3,   4,   4,   0,   3,   2,   1,   0],
  // CHECK-NEXT: [14,   13,   12,   11,   10,   13,   12,   11,   11,   12,   13]]
  %r0 = call @check(%d, %good) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r0) : (tensor<?x?xf32>) -> ()
  // CHECK: {{\[}}[0,   1,   2,   3,   4,   4,   0,   3,   2,   1,   0],
  // CHECK-NEXT: [14,   13,   12,   11,   10,   13,   12,   11,   11,   12,   13]]
  %r1 = call @unchecked(%d, %good) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r1) : (tensor<?x?xf32>) -> ()
  // CHECK: {{\[}}[0,   1,   2,   3,   4,   4,   0,   0,   0,   0,   0],
  // CHECK-NEXT: [14,   13,   12,   11,   10,   13,   0,   0,   0,   0,   0]]
  %r2 = call @fill(%d, %wild) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r2) : (tensor<?x?xf32>) -> ()
  // CHECK: {{\[}}[0,   1,   2,   3,   4,   4,   0,   4,   0,   4,   0],
  // CHECK-NEXT: [14,   13,   12,   11,   10,   13,   14,   14,   10,   14,   10]]
  %r3 = call @clamp(%d, %wild) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r3) : (tensor<?x?xf32>) -> ()
  // CHECK: {{\[}}[0,   1,   2,   3,   4,   4,   0,   2,   3,   0,   0],
  // CHECK-NEXT: [14,   13,   12,   11,   10,   13,   10,   11,   14,   14,   11]]
  %r4 = call @wrap(%d, %wild) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r4) : (tensor<?x?xf32>) -> ()

  // gather: result[r, p, q] = data[r, good[p, q]].
  // CHECK: {{\[}}{{\[}}[0,   1,   2,   3,   4,   4,   0,   3,   2,   1,   0],
  // CHECK-NEXT: [4,   3,   2,   1,   0,   3,   2,   1,   1,   2,   3]],
  // CHECK-NEXT: {{\[}}[10,   11,   12,   13,   14,   14,   10,   13,   12,   11,   10],
  // CHECK-NEXT: [14,   13,   12,   11,   10,   13,   12,   11,   11,   12,   13]]]
  %r5 = call @gather_last(%d, %good) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?x?xf32>
  %u5 = tensor.cast %r5 : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()

  // An empty data axis: fill reads nothing and gives zeros.
  // CHECK: {{\[}}[0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
  // CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0]]
  %e = arith.constant dense<> : tensor<2x0xf32>
  %de = tensor.cast %e : tensor<2x0xf32> to tensor<?x?xf32>
  %r6 = call @fill(%de, %wild) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r6) : (tensor<?x?xf32>) -> ()
  return
}

// VECTOR: error: gather.gather_elements: index -7 is out of range [-5, 4] for data dimension 1 of size 5
// VECTOR-NOT: Memref
func.func @bad_in_vector() {
  %d = call @data() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[0, 1, 2, 3, 4, -1, -5, 3, 2, 1, 0], [4, 3, 2, -7, 0, -2, 9, -4, 1, 5, -6]]> : tensor<2x11xi32>
  %i = tensor.cast %c : tensor<2x11xi32> to tensor<?x?xi32>
  %r = call @check(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// TAIL: error: gather.gather_elements: index 5 is out of range [-5, 4] for data dimension 1 of size 5
// TAIL-NOT: Memref
func.func @bad_in_tail() {
  %d = call @data() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[0, 1, 2, 3, 4, -1, -5, 3, 2, 1, 0], [4, 3, 2, 1, 0, -2, -3, -4, 1, 5, -6]]> : tensor<2x11xi32>
  %i = tensor.cast %c : tensor<2x11xi32> to tensor<?x?xi32>
  %r = call @check(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// EMPTY: error: gather.gather_elements: index 2 {{.*}}data dimension 1{{.*}}size 0
// EMPTY-NOT: Memref
func.func @check_empty_axis() {
  %e = arith.constant dense<> : tensor<2x0xf32>
  %d = tensor.cast %e : tensor<2x0xf32> to tensor<?x?xf32>
  %c = arith.constant dense<[[2, 0, 0], [0, 0, 0]]> : tensor<2x3xi32>
  %i = tensor.cast %c : tensor<2x3xi32> to tensor<?x?xi32>
  %r = call @check(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

/// One row of 10000 indices, which threads take in pieces of 4096, each
/// checked as it is gathered: of the bad indices in the second and the
/// third piece, the first is reported, whichever thread met it.
// PIECES: error: gather.gather_elements: index 12 is out of range [-10, 9] for data dimension 0 of size 10
// PIECES-NOT: Memref
func.func @check_1d(%d: tensor<?xf32>, %i: tensor<?xi32>) -> tensor<?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @bad_in_pieces() {
  %dc = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<10xf32>
  %d = tensor.cast %dc : tensor<10xf32> to tensor<?xf32>
  %c10000 = arith.constant 10000 : index
  %ids = tensor.generate %c10000 {
  ^bb0(%k: index):
    %c10 = arith.constant 10 : index
    %m = arith.remui %k, %c10 : index
    %v = arith.index_cast %m : index to i32
    tensor.yield %v : i32
  } : tensor<?xi32>
  %c5000 = arith.constant 5000 : index
  %c9000 = arith.constant 9000 : index
  %c12 = arith.constant 12 : i32
  %cm11 = arith.constant -11 : i32
  %a = tensor.insert %cm11 into %ids[%c9000] : tensor<?xi32>
  %bad = tensor.insert %c12 into %a[%c5000] : tensor<?xi32>
  %r = call @check_1d(%d, %bad) : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xf32>
  %u = tensor.cast %r : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
