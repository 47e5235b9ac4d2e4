// RUN: gather-opt %s --convert-gather-to-linalg | FileCheck %s
// RUN: gather-opt %s --convert-embedding-bag-to-scf | FileCheck %s --check-prefix=HOOKS

// An embedding bag in upstream ops only: offsets checked by one loop, ids by
// another, then threads over bags, each walking its ids and adding each
// table row (a slice) into its result row with an elementwise generic.
// gather-to-llvm's lowering is the same with the run-time hooks.

// CHECK-LABEL: func.func @bags
// CHECK-NOT: gather.
// CHECK: scf.for {{.*}} -> (index)
// CHECK: scf.for {{.*}} -> (i1, i64)
// CHECK: scf.forall ({{.*}}) in ({{.*}}) shared_outs({{.*}}) -> (tensor<?x16xf32>)
// CHECK:   tensor.extract_slice {{.*}} : tensor<?x16xf32> to tensor<16xf32>
// CHECK:   linalg.fill
// CHECK:   scf.for {{.*}} iter_args({{.*}}) -> (tensor<16xf32>, index)
// CHECK:     tensor.extract_slice %{{.*}}[%{{.*}}, 0] [1, 16] [1, 1] : tensor<1000x16xf32> to tensor<16xf32>
// CHECK:     linalg.generic {{.*}} ins(%{{.*}} : tensor<16xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK:       arith.addf
// CHECK:   linalg.generic
// CHECK:     arith.divf
// CHECK:   tensor.parallel_insert_slice
// CHECK: cf.assert
// CHECK-NOT: func.call
// HOOKS-LABEL: func.func @bags
// HOOKS: call @gather_mlir_index_error
// HOOKS: call @gather_mlir_shape_error
func.func @bags(%t: tensor<1000x16xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x16xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) : (tensor<1000x16xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
