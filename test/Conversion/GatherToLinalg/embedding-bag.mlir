// RUN: gather-opt %s --convert-gather-to-linalg | FileCheck %s
// RUN: gather-opt %s --convert-embedding-bag-to-scf | FileCheck %s --check-prefix=HOOKS
// RUN: gather-opt %s --convert-embedding-bag-to-scf="prefetch-distance=0" | FileCheck %s --check-prefix=NOPF
// RUN: gather-opt %s --convert-gather-to-linalg | FileCheck %s --check-prefix=NOPF

// An embedding bag in upstream ops only: offsets checked by one loop, then
// threads over bags; each bag's row is reduced 128 lanes at a time (the sum
// of a chunk stays in a vector across the bag's ids, each id one
// transfer_read of the table), then the rest of the row with masked
// transfers. check mode reads each id's row clamped and records, one i8 a
// bag, whether the bag holds an id out of range; if one does, the result
// is zeros (in the same buffer) after the failure. gather-to-llvm's
// lowering is the same with the run-time hooks, which scan the ids in order
// to name the first bad one.

// CHECK-LABEL: func.func @bags
// CHECK-NOT: gather.
// CHECK: scf.for {{.*}} -> (index)
// CHECK: scf.forall ({{.*}}) in ({{.*}}) shared_outs({{.*}}) -> (tensor<?x16xf32>, tensor<?xi8>)
// CHECK:   tensor.extract_slice {{.*}} : tensor<?x16xf32> to tensor<1x16xf32>
// CHECK:   scf.for {{.*}} step %c128{{.*}} -> (tensor<1x16xf32>, i1)
// CHECK:     scf.for {{.*}} -> (vector<128xf32>, index, i1)
// CHECK:       vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1000x16xf32>, vector<128xf32>
// CHECK:       arith.addf {{.*}} : vector<128xf32>
// CHECK:     arith.divf {{.*}} : vector<128xf32>
// CHECK:     vector.transfer_write {{.*}} {in_bounds = [true]} : vector<128xf32>, tensor<1x16xf32>
// CHECK:   scf.if
// CHECK:     scf.for {{.*}} -> (vector<128xf32>, index, i1)
// CHECK:       vector.transfer_read %{{.*}} : tensor<1000x16xf32>, vector<128xf32>
// CHECK:     vector.transfer_write %{{.*}} : vector<128xf32>, tensor<1x16xf32>
// CHECK:   tensor.parallel_insert_slice {{.*}} : tensor<1x16xf32> into tensor<?x16xf32>
// CHECK:   tensor.parallel_insert_slice {{.*}} : tensor<1xi8> into tensor<?xi8>
// CHECK: scf.for {{.*}} -> (i8)
// CHECK: cf.assert
// CHECK: linalg.fill
// CHECK-NOT: func.call
// The linalg path prefetches nothing (it stays on tensors); the hooks'
// lowering prefetches each cache line of the chunk of the row 16 ids ahead.
// HOOKS-LABEL: func.func @bags
// HOOKS: %[[TABLE:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1000x16xf32> to memref<1000x16xf32>
// HOOKS: scf.forall
// HOOKS: %[[C16:.*]] = arith.constant 16 : index
// HOOKS: arith.addi %{{.*}}, %[[C16]] : index
// HOOKS: memref.prefetch %[[TABLE]][%{{.*}}, %{{.*}}], read, locality<3>, data : memref<1000x16xf32>
// HOOKS: vector.transfer_read
// HOOKS: scf.for {{.*}} -> (i1, i64)
// HOOKS: call @gather_mlir_index_error
// HOOKS: call @gather_mlir_shape_error
// NOPF-LABEL: func.func @bags
// NOPF-NOT: memref.prefetch
// NOPF: return
func.func @bags(%t: tensor<1000x16xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x16xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) : (tensor<1000x16xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
