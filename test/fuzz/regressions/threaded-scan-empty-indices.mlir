// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0 validate-rows=true" | FileCheck %s
//
// A gather-fuzz finding, fixed: check mode's scan of the indices on threads
// (parallel-min-bytes=0 puts any size on threads) made, for the report, a
// subview of the first slab with a bad index even when a static dim of the
// indices is 0, which the subview verifier rejects (offset 0 of a dim of
// size 0). With no index at all there is nothing to scan, on threads or
// not, and no slab to view.
// CHECK-LABEL: llvm.func @no_index_row
// CHECK-NOT: omp.parallel
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @no_index_rows
// CHECK-LABEL: llvm.func @elements_no_index_row
func.func @no_index_row(%d: tensor<0x4294967296xi2>) -> tensor<1x0x4294967296xi2> {
  %i = arith.constant dense<9> : tensor<1x0xi32>
  %r = gather.gather %d[%i] : (tensor<0x4294967296xi2>, tensor<1x0xi32>) -> tensor<1x0x4294967296xi2>
  return %r : tensor<1x0x4294967296xi2>
}
func.func @no_index_rows(%d: tensor<*xf32>, %i: tensor<0x0xi32>) -> tensor<?x?x?xf32> {
  %r = gather.gather %d[%i] : (tensor<*xf32>, tensor<0x0xi32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @elements_no_index_row(%d: tensor<3x?xf32>, %i: tensor<2x0xi64>) -> tensor<2x0xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<3x?xf32>, tensor<2x0xi64>) -> tensor<2x0xf32>
  return %r : tensor<2x0xf32>
}
