// RUN: gather-opt %s --convert-gather-to-loops="parallel=true gather-loads=vector" --canonicalize --cse --split-input-file | FileCheck %s

/// One-dimensional indices are validated serially (one row: the first bad
/// index is the first found); the gather's outermost loop runs its
/// iterations in parallel. Fewer than 64 rows are split into pieces of 4096
/// elements (item k is piece k % pieces of row k / pieces); more rows are
/// taken whole.
// CHECK-LABEL: func.func @gather_parallel_rows
// CHECK: affine.for
// CHECK:   arith.cmpi uge
// CHECK: func.call @gather_mlir_index_error
// CHECK: %[[FEW:.*]] = arith.cmpi ult, %[[ROWS:.*]], %c64
// CHECK: scf.if %[[FEW]] {
// CHECK:   %[[PIECES:.*]] = arith.ceildivui %[[N:.*]], %c4096
// CHECK:   %[[ITEMS:.*]] = arith.muli %[[ROWS]], %[[PIECES]]
// CHECK:   scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[ITEMS]]) step (%{{.*}}) {
// CHECK:     %[[PIECE:.*]] = arith.remui %[[K]], %[[PIECES]]
// CHECK:     %[[START:.*]] = arith.muli %[[PIECE]], %c4096
// CHECK:     %[[ROW:.*]] = arith.divui %[[K]], %[[PIECES]]
// CHECK:     {{memref.load|tensor.extract}} %{{.*}}[%[[ROW]]]
// CHECK:     %[[COLUMN:.*]] = arith.addi %[[START]], %{{.*}}
// CHECK:     vector.load %{{.*}}[%{{.*}}, %[[COLUMN]]]
// CHECK: } else {
// CHECK:   scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[ROWS]]) step (%{{.*}}) {
// CHECK:     {{memref.load|tensor.extract}} %{{.*}}[%[[I]]]
// CHECK:     affine.for
// CHECK:       vector.load
// CHECK-NOT: scf.parallel
func.func @gather_parallel_rows(%d: tensor<?x?xf32>, %i: tensor<?xi32>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @gather_elements_parallel
// CHECK: scf.parallel
// CHECK:   vector.gather
func.func @gather_elements_parallel(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

/// The cost model: a result whose size is known only at run time gets both
/// nests, chosen by one test of its size (parallel-min-bytes, 8 MiB by
/// default); a result statically below it only the serial one. The
/// threaded nest is two: rows in pieces or whole (piecedNest).
// CHECK-LABEL: func.func @threads_by_size
// CHECK: %[[ROWS:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[BIG:.*]] = arith.cmpi uge, %{{.*}}, %c8388608
// CHECK: scf.if %[[BIG]] {
// CHECK:   scf.parallel
// CHECK:   scf.parallel (%{{.*}}) = (%c0) to (%[[ROWS]])
// CHECK-NOT: scf.parallel
// CHECK:   affine.for %{{.*}} = 0 to %[[ROWS]] {
// CHECK-LABEL: func.func @small_static
// CHECK-NOT: scf.parallel
func.func @threads_by_size(%d: tensor<?x?xf32>, %i: tensor<?xi32>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<?x?xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @small_static(%d: tensor<100x64xf32>, %i: tensor<1000xi32>) -> tensor<1000x64xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<100x64xf32>, tensor<1000xi32>) -> tensor<1000x64xf32>
  return %0 : tensor<1000x64xf32>
}

// -----

/// check mode scans an index array of parallel-min-bytes or more on threads
/// too: each slab flags its first bad row, the first flagged slab (an
/// atomic min) is scanned again serially for the report, then the gather
/// runs.
// CHECK-LABEL: func.func @check_scan_on_threads
// CHECK: %[[FIRST:.*]] = memref.alloca() : memref<1xi64>
// CHECK: scf.parallel
// CHECK:   memref.alloca() : memref<i1>
// CHECK:     vector.reduction <or>
// CHECK:     memref.atomic_rmw mins %{{.*}}, %[[FIRST]]
// CHECK: %[[BAD:.*]] = memref.load %[[FIRST]]
// CHECK: %[[ANY:.*]] = arith.cmpi slt, %[[BAD]]
// CHECK: scf.if %[[ANY]] {
// CHECK:   memref.subview
// CHECK-NOT: scf.parallel
// CHECK: func.call @gather_mlir_index_error
// CHECK: scf.parallel
// CHECK:   vector.gather
func.func @check_scan_on_threads(%d: tensor<4096x1024xf32>, %i: tensor<4096x1024xi64>) -> tensor<4096x1024xf32> {
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<4096x1024xf32>, tensor<4096x1024xi64>) -> tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}

// -----

/// The scan is sized by the indices, the gather by the result: 64x32 i64
/// indices (16 KiB) into rows of 4096 floats make a 32 MiB result, whose
/// gather runs on threads after a serial scan.
// CHECK-LABEL: func.func @small_indices_serial_scan
// CHECK-NOT: scf.parallel
// CHECK: vector.reduction <or>
// CHECK-NOT: scf.parallel
// CHECK: func.call @gather_mlir_index_error
// CHECK: scf.parallel
func.func @small_indices_serial_scan(%d: tensor<1000x4096xf32>, %i: tensor<64x32xi64>) -> tensor<64x32x4096xf32> {
  %0 = gather.gather %d[%i] : (tensor<1000x4096xf32>, tensor<64x32xi64>) -> tensor<64x32x4096xf32>
  return %0 : tensor<64x32x4096xf32>
}

// -----

/// `index` ids are sized as the 64-bit integers they lower to when the cost
/// model weighs a threaded check scan (they have no bit width of their own:
/// sizing them crashed the pass).
// CHECK-LABEL: func.func @index_ids_small
// CHECK-NOT: scf.parallel
// CHECK: func.call @gather_mlir_index_error
func.func @index_ids_small(%d: tensor<4xf32>, %i: tensor<2x3xindex>) -> tensor<2x3xf32> {
  %r = gather.gather %d[%i] : (tensor<4xf32>, tensor<2x3xindex>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

/// 1024x1024 `index` ids are 8 MiB: the check scan runs on threads.
// CHECK-LABEL: func.func @index_ids_threaded_scan
// CHECK: scf.parallel
// CHECK:   memref.atomic_rmw mins
// CHECK: func.call @gather_mlir_index_error
func.func @index_ids_threaded_scan(%d: tensor<64xf32>, %i: tensor<1024x1024xindex>) -> tensor<1024x1024xf32> {
  %r = gather.gather %d[%i] : (tensor<64xf32>, tensor<1024x1024xindex>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}

// -----

/// A single row (1-D data along its only axis): pieces of 4096 elements run
/// on threads, each gathering elements [4096 k, min(4096 (k + 1), n)) of
/// the index and result rows.
// CHECK-LABEL: func.func @single_row_in_pieces
// CHECK-DAG: %[[PIECE:.*]] = arith.constant 4096 : index
// CHECK: %[[COUNT:.*]] = arith.ceildivui %[[N:.*]], %[[PIECE]]
// CHECK: scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[COUNT]])
// CHECK:   %[[START:.*]] = arith.muli %[[K]], %[[PIECE]]
// CHECK:   %[[LEFT:.*]] = arith.subi %[[N]], %[[START]]
// CHECK:   arith.minui %[[LEFT]], %[[PIECE]]
// CHECK:   vector.maskedload %{{.*}}[%[[START]]]
// CHECK:   vector.gather
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @single_row_in_pieces(%d: memref<?xf32>, %i: memref<?xi64>, %o: memref<?xf32>) {
  %dt = bufferization.to_tensor %d restrict : memref<?xf32> to tensor<?xf32>
  %it = bufferization.to_tensor %i restrict : memref<?xi64> to tensor<?xi64>
  %r = gather.gather %dt[%it] {mode = #gather<mode wrap>} : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}
