// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" --split-input-file | FileCheck %s

/// gather-to-llvm hands out bags and row gathers in static blocks (a
/// dispatch a chunk cost more than it balanced); each loop ends its
/// parallel region, whose end is its one barrier.
// CHECK-LABEL: llvm.func @bags
// CHECK-NOT: schedule(
// CHECK: omp.wsloop nowait {
// CHECK-NOT: schedule(
// CHECK-LABEL: llvm.func @_mlir_ciface_bags
func.func @bags(%t: tensor<?x64xf32>, %ids: tensor<?xi64>, %offsets: tensor<?xi64>) -> tensor<?x64xf32> {
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {reduction = #gather<reduction sum>} : (tensor<?x64xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// -----

// CHECK-LABEL: llvm.func @rows
// CHECK-NOT: schedule(
// CHECK: omp.wsloop nowait {
// CHECK-NOT: schedule(
// CHECK-LABEL: llvm.func @_mlir_ciface_rows
func.func @rows(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
