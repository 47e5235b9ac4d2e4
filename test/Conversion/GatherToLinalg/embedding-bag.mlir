// RUN: gather-opt %s --convert-gather-to-linalg | FileCheck %s
// RUN: gather-opt %s --convert-embedding-bag-to-scf | FileCheck %s --check-prefix=HOOKS
// RUN: gather-opt %s --convert-embedding-bag-to-scf="prefetch-distance=0" | FileCheck %s --check-prefix=LOOPS
// RUN: gather-opt %s --convert-embedding-bag-to-scf="prefetch-distance=0" | FileCheck %s --check-prefix=NOPF
// RUN: gather-opt %s --convert-gather-to-linalg | FileCheck %s --check-prefix=NOPF

// An embedding bag in upstream ops only, for compilers that build their
// dispatches from linalg ops: the offsets, then (check mode) the ids pass
// through a linalg.generic that cf.asserts each one's rules and yields it;
// then one linalg.generic over the result whose body walks the element's
// bag in the checked offsets (an scf.for over the checked ids, each one
// scalar read of the table, here a vector<1xf32> transfer_read, only for
// ids in range). No loop over ids or offsets outside a linalg op.

// CHECK-LABEL: func.func @bags
// CHECK-NOT: gather.
// CHECK: %[[OFFSETS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]{{.*}} ins(%{{.*}} : tensor<?xi64>)
// CHECK:   cf.assert {{.*}} "gather.embedding_bag: offsets must start at 0, be non-decreasing and end within the ids"
// CHECK: %[[IDS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]{{.*}} ins(%{{.*}} : tensor<?xi64>)
// CHECK:   cf.assert {{.*}} "gather.embedding_bag: an id is out of range for the table"
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} outs(%{{.*}} : tensor<?x16xf32>)
// CHECK:   %[[BAG:.*]] = linalg.index 0 : index
// CHECK:   %[[D:.*]] = linalg.index 1 : index
// CHECK:   tensor.extract %[[OFFSETS]][%[[BAG]]] : tensor<?xi64>
// CHECK:   scf.for {{.*}} -> (vector<1xf32>, index)
// CHECK:     tensor.extract %[[IDS]]
// CHECK:     vector.transfer_read %{{.*}}[%{{.*}}, %[[D]]], {{.*}} {in_bounds = [true]} : tensor<1000x16xf32>, vector<1xf32>
// CHECK:     arith.addf {{.*}} : vector<1xf32>
// CHECK:   arith.divf {{.*}} : vector<1xf32>
// CHECK:   vector.extract
// CHECK:   linalg.yield {{.*}} : f32
// CHECK-NOT: scf.for
// CHECK-NOT: scf.forall
// CHECK-NOT: func.call
// CHECK: return

// gather-to-llvm's kernels (the hooks): threads over bags; each bag's row
// is reduced 128 lanes at a time (the sum of a chunk stays in a vector
// across the bag's ids, each id one transfer_read of the table), then the
// rest of the row (a row of unknown length: masked transfers; a static
// one: the rest's lanes rounded up to a power of two, masked when that
// is more); a row of 16 values, narrower than a chunk, is that rest alone
// (no loop of whole chunks), 16 lanes read in bounds. check mode records,
// one i8 a bag, whether the bag holds an id out of range; then the ids are
// scanned in order to name the first. Each bag of 4 ids or more first
// reads its ids, 16 at a time (the last ones masked): when every one is a
// row as it is (unsigned, less than the rows), its loops read each id's
// row with no work on the id: no normalization, range test or flag. A bag
// with another id, or of fewer ids, takes loops that resolve each id.
// LOOPS-LABEL: func.func @bags
// LOOPS: scf.for {{.*}} -> (index)
// LOOPS: scf.forall ({{.*}}) in ({{.*}}) shared_outs({{.*}}) -> (tensor<?x16xf32>, tensor<?xi8>)
// LOOPS:   tensor.extract_slice {{.*}} : tensor<?x16xf32> to tensor<1x16xf32>
// LOOPS:   %[[C4:.*]] = arith.constant 4 : index
// LOOPS:   %[[LONG:.*]] = arith.cmpi uge, %{{.*}}, %[[C4]] : index
// LOOPS:   %[[ROWS:.*]] = scf.if %[[LONG]] -> (i1) {
// LOOPS:     scf.for {{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<16xi1>)
// LOOPS:       vector.create_mask
// LOOPS:       vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<?xi64>, vector<16xi64>
// LOOPS:       arith.cmpi uge, {{.*}} : vector<16xi64>
// LOOPS:     %[[ANY:.*]] = vector.reduction <or>, {{.*}} : vector<16xi1> into i1
// LOOPS:     %[[ALL:.*]] = arith.xori %[[ANY]]
// LOOPS:     scf.yield %[[ALL]] : i1
// LOOPS:   } else {
// LOOPS:     %[[NO:.*]] = arith.constant false
// LOOPS:     scf.yield %[[NO]] : i1
// LOOPS:   scf.if %[[ROWS]] -> (tensor<1x16xf32>, i1)
// LOOPS-NOT: step %c128
// LOOPS:     scf.for {{.*}} -> (vector<16xf32>, index) {
// LOOPS:       %[[ID:.*]] = tensor.extract
// LOOPS-NEXT:  %[[ROW:.*]] = arith.index_cast %[[ID]] : i64 to index
// LOOPS-NOT:   arith.cmpi
// LOOPS:       vector.transfer_read %{{.*}}[%[[ROW]], %{{.*}}], {{.*}} {in_bounds = [true]} : tensor<1000x16xf32>, vector<16xf32>
// LOOPS:       arith.addf {{.*}} : vector<16xf32>
// LOOPS:     scf.yield {{.*}}, %false : tensor<1x16xf32>, i1
// LOOPS:   } else {
// LOOPS:     scf.for {{.*}} -> (vector<16xf32>, index, i1)
// LOOPS:       arith.cmpi ult
// LOOPS:       vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1000x16xf32>, vector<16xf32>
// LOOPS:       arith.addf {{.*}} : vector<16xf32>
// LOOPS:     arith.divf {{.*}} : vector<16xf32>
// LOOPS:     vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<1x16xf32>
// LOOPS:   tensor.parallel_insert_slice {{.*}} : tensor<1x16xf32> into tensor<?x16xf32>
// LOOPS:   tensor.parallel_insert_slice {{.*}} : tensor<1xi8> into tensor<?xi8>
// LOOPS: scf.for {{.*}} -> (i8)
// LOOPS: call @gather_mlir_index_error
// LOOPS: linalg.fill
// The linalg path prefetches nothing (it stays on tensors); the hooks'
// lowering prefetches each cache line of the chunk of the row 16 ids ahead,
// and the chunk's last value: a row of 64 bytes is one line, or two when
// the table does not start on a line (numpy's large arrays start 16 bytes
// past one).
// HOOKS-LABEL: func.func @bags
// HOOKS: %[[TABLE:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<1000x16xf32> to memref<1000x16xf32>
// HOOKS: scf.forall
/// The ids a bag's loops read as rows include those its prefetches read:
/// the bag's scan runs from its start to 16 ids past its end (within the
/// ids: up to the id its last id's prefetch reads, min(end - 1 + 16,
/// ids - 1)). Its loop reads prefetched rows as they are; the resolving
/// loop keeps each in the table.
// HOOKS: %[[START:.*]] = arith.minsi %{{.*}}, %[[NUM_IDS:.*]] : index
// HOOKS: %[[END:.*]] = arith.minsi %{{.*}}, %[[NUM_IDS]] : index
// HOOKS: %[[LAST:.*]] = arith.subi %[[END]], %c1{{.*}} : index
// HOOKS: %[[PAST:.*]] = arith.addi %[[LAST]], %c16{{.*}} : index
// HOOKS: %[[LAST_ID:.*]] = arith.subi %[[NUM_IDS]], %c1{{.*}} : index
// HOOKS: %[[AHEAD_AT:.*]] = arith.minui %[[PAST]], %[[LAST_ID]] : index
// HOOKS: %[[SCANNED:.*]] = arith.addi %[[AHEAD_AT]], %c1{{.*}} : index
// HOOKS: scf.for %{{.*}} = %[[START]] to %[[SCANNED]] step %{{.*}} -> (vector<16xi1>)
// HOOKS: vector.reduction <or>
// HOOKS: scf.for {{.*}} -> (vector<16xf32>, index) {
// HOOKS: %[[C16:.*]] = arith.constant 16 : index
// HOOKS: arith.addi %{{.*}}, %[[C16]] : index
// HOOKS: %[[AHEAD:.*]] = tensor.extract
// HOOKS-NEXT: %[[ROW:.*]] = arith.index_cast %[[AHEAD]] : i64 to index
// HOOKS-NOT: arith.minui {{.*}} : i64
// HOOKS: memref.prefetch %[[TABLE]][%[[ROW]], %{{.*}}], read, locality<3>, data : memref<1000x16xf32>
// HOOKS: %[[C15:.*]] = arith.constant 15 : index
// HOOKS: %[[LAST:.*]] = arith.addi %{{.*}}, %[[C15]] : index
// HOOKS: %[[COL:.*]] = arith.minui %[[LAST]], %{{.*}} : index
// HOOKS: memref.prefetch %[[TABLE]][%[[ROW]], %[[COL]]], read, locality<3>, data : memref<1000x16xf32>
// HOOKS-NOT: memref.prefetch
// HOOKS: vector.transfer_read
// HOOKS: } else {
// HOOKS: scf.for {{.*}} -> (vector<16xf32>, index, i1) {
// HOOKS: %[[ID_AHEAD:.*]] = tensor.extract
// HOOKS: %[[KEPT:.*]] = arith.minui %[[ID_AHEAD]], %{{.*}} : i64
// HOOKS: %[[KEPT_ROW:.*]] = arith.index_cast %[[KEPT]] : i64 to index
// HOOKS: memref.prefetch %[[TABLE]][%[[KEPT_ROW]], %{{.*}}]
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

/// Rows of 512 bytes: the hooks' lowering prefetches each of the row's 8
/// cache lines 16 ids ahead and its last value (a ninth line if the row
/// does not start on one), adds a weighted row with one fused
/// multiply-add, and in check mode adds only the rows of ids in range (the
/// others are recorded, not read).
// HOOKS-LABEL: func.func @weighted_bags_of_512_byte_rows
// HOOKS: scf.forall
// HOOKS: scf.for {{.*}} -> (vector<128xf32>, index, i1)
// HOOKS-COUNT-7: memref.prefetch %{{.*}} : memref<1000x128xf32>
// HOOKS: arith.constant 112 : index
// HOOKS: memref.prefetch %{{.*}} : memref<1000x128xf32>
// HOOKS: arith.constant 127 : index
// HOOKS: memref.prefetch %{{.*}} : memref<1000x128xf32>
// HOOKS-NOT: memref.prefetch
// HOOKS: %[[IN:.*]] = arith.cmpi ult
// HOOKS: scf.if %[[IN]]
// HOOKS: vector.transfer_read {{.*}} : tensor<1000x128xf32>, vector<128xf32>
// HOOKS: vector.fma {{.*}} : vector<128xf32>
/// A row of exactly one chunk has no tail: its one write is in bounds.
// HOOKS: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<128xf32>, tensor<1x128xf32>
// HOOKS-NOT: vector.transfer_write
// HOOKS: scf.forall.in_parallel
func.func @weighted_bags_of_512_byte_rows(%t: tensor<1000x128xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %w: tensor<?xf32>) -> tensor<?x128xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<1000x128xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
