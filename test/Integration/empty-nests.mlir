// An empty index array costs nothing however large its other dims: a loop
// nest whose inner loop is empty is skipped whole, not walked (2^40 outer
// iterations took hours). Serially, on threads, with validate-rows, and
// on the linalg path.
// RUN: gather-opt %s --gather-to-llvm | timeout 60 %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" | timeout 60 %run_main_omp | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="validate-rows=true parallel=true parallel-min-bytes=0" | timeout 60 %run_main_omp | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="gather-loads=element" | timeout 60 %run_main | FileCheck %s
/// The linalg path skips its check and gather generics the same way.
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | timeout 60 %run_main | FileCheck %s

func.func @gather_check(%d: tensor<?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] : (tensor<?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @gather_wrap_rows(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x?xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @elements_check(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @nd_clamp(%d: tensor<?x?xf32>, %i: tensor<?x?x1xi64>) -> tensor<?x?x?xf32> {
  %r = gather.gather_nd %d[%i] {mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?x?x1xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
/// Static shapes: 2^63 - 1 tuples of 0 rows.
func.func @nd_static(%d: tensor<3xf32>, %i: tensor<9223372036854775807x2x0x1xi64>) -> tensor<9223372036854775807x2x0xf32> {
  %r = gather.gather_nd %d[%i] : (tensor<3xf32>, tensor<9223372036854775807x2x0x1xi64>) -> tensor<9223372036854775807x2x0xf32>
  return %r : tensor<9223372036854775807x2x0xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %big = arith.constant 1099511627776 : index
  %d1 = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %d1d = tensor.cast %d1 : tensor<3xf32> to tensor<?xf32>
  %d2 = tensor.empty(%c3, %c2) : tensor<?x?xf32>
  %i2 = tensor.empty(%big, %c0) : tensor<?x?xi64>
  %a = call @gather_check(%d1d, %i2) : (tensor<?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %a0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  // CHECK: 1099511627776
  vector.print %a0 : index
  %b = call @gather_wrap_rows(%d2, %i2) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?x?xf32>
  %b1 = tensor.dim %b, %c0 : tensor<?x?x?xf32>
  // CHECK-NEXT: 1099511627776
  vector.print %b1 : index
  %e2 = tensor.empty(%big, %c0) : tensor<?x?xf32>
  %e = call @elements_check(%e2, %i2) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %e0 = tensor.dim %e, %c0 : tensor<?x?xf32>
  // CHECK-NEXT: 1099511627776
  vector.print %e0 : index
  %i3 = tensor.empty(%big, %c0) : tensor<?x?x1xi64>
  %n = call @nd_clamp(%d2, %i3) : (tensor<?x?xf32>, tensor<?x?x1xi64>) -> tensor<?x?x?xf32>
  %n2 = tensor.dim %n, %c2 : tensor<?x?x?xf32>
  // CHECK-NEXT: 2
  vector.print %n2 : index
  %is = tensor.empty() : tensor<9223372036854775807x2x0x1xi64>
  %s = call @nd_static(%d1, %is) : (tensor<3xf32>, tensor<9223372036854775807x2x0x1xi64>) -> tensor<9223372036854775807x2x0xf32>
  %s1 = tensor.dim %s, %c1 : tensor<9223372036854775807x2x0xf32>
  // CHECK-NEXT: 2
  vector.print %s1 : index
  return
}
