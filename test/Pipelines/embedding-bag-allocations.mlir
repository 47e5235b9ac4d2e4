// RUN: gather-opt %s --gather-to-llvm | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true" | FileCheck %s

/// A check-mode bag kernel allocates once, the bags' flags (a byte a bag,
/// whether it holds an id out of range), and writes each bag's flag into
/// it: no allocation a bag, which cost a malloc and a free in every bag.
// CHECK-LABEL: llvm.func @bag
// CHECK-COUNT-1: llvm.call @malloc
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.return
func.func @bag(%t: tensor<?x128xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %out: memref<?x128xf32>) {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>} : (tensor<?x128xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x128xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x128xf32>, memref<?x128xf32>) -> ()
  return
}
