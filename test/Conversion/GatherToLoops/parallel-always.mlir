// RUN: gather-opt %s --convert-gather-to-loops="parallel=true parallel-min-bytes=0 gather-loads=vector" --canonicalize --cse | FileCheck %s

/// parallel-min-bytes=0 puts every size on threads: the threaded nests
/// only, with no run-time test of a size and no serial copy of the loops
/// beside them (the Python package's parallel kernels, which it only calls
/// for results of at least the default threshold). check mode's scan of the
/// indices runs on threads too. The gather's threaded nest is two: rows in
/// pieces for an outermost dim of few positions, else whole rows.
// CHECK-LABEL: func.func @always_threads
// CHECK-NOT: arith.cmpi uge, %{{.*}}, %c0 : index
// CHECK-NOT: affine.for
// CHECK: scf.parallel
// CHECK: func.call @gather_mlir_index_error
// CHECK-NOT: arith.cmpi uge, %{{.*}}, %c0 : index
// CHECK-NOT: affine.for
// CHECK: scf.if
// CHECK:   scf.parallel
// CHECK:     vector.load
// CHECK: } else {
// CHECK-NOT: affine.for %{{.*}} = 0 to %dim {
// CHECK:   scf.parallel (%{{.*}}) = (%c0) to (%dim)
// CHECK:     vector.load
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @always_threads(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?x?xf32> {
  %0 = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
