// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=vector" --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops="validate-rows=true gather-loads=vector" --split-input-file | FileCheck %s --check-prefix=ROWS
// RUN: gather-opt %s --convert-gather-to-loops="validate-rows=true gather-loads=scalar" --split-input-file | FileCheck %s --check-prefix=SCALAR-ROWS
// RUN: gather-opt %s --convert-gather-to-loops="validate-rows=true parallel=true parallel-min-bytes=0 gather-loads=scalar" --split-input-file | FileCheck %s --check-prefix=THREAD-ROWS

/// Along the innermost axis each row is one vector.gather per chunk (one
/// chunk an iteration): the indices load as a vector, normalize lane-wise,
/// and fill mode masks the out-of-range lanes (the pass-through is zero).
// CHECK-LABEL: func.func @gather_elements_last_axis_fill
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: affine.for %[[R:.*]] = 0 to 4 {
// CHECK:   affine.for %[[C:.*]] = 0 to 16 step 8 {
// CHECK:     %[[I:.*]] = vector.load %{{.*}}[%[[R]], %[[C]]] : memref<4x16xi32>, vector<8xi32>
// CHECK:     %[[W:.*]] = arith.extsi %[[I]] : vector<8xi32> to vector<8xi64>
// CHECK:     %[[VALID:.*]] = arith.cmpi ult, %{{.*}} : vector<8xi64>
// CHECK:     %[[G:.*]] = vector.gather %{{.*}}[%[[R]], %{{.*}}] [%{{.*}}], %[[VALID]], %[[ZERO]]
// CHECK:     vector.store %[[G]], %{{.*}}[%[[R]], %[[C]]]
func.func @gather_elements_last_axis_fill(%d: tensor<4x9xf32>, %i: tensor<4x16xi32>) -> tensor<4x16xf32> {
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<4x9xf32>, tensor<4x16xi32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

/// Along an outer axis a row of indices is one vector.gather per chunk
/// too: lane l reads the clamped subscript times the axis's stride, plus
/// its column; check mode validates first.
// CHECK-LABEL: func.func @gather_elements_axis_0_check
// CHECK-DAG: %[[STRIDE:.*]] = arith.constant dense<3> : vector<8xi64>
// CHECK-DAG: %[[COLUMNS:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi64>
// CHECK: func.call @gather_mlir_index_error
// CHECK: affine.for %[[R:.*]] = 0 to 2 {
// CHECK:   %[[MASK:.*]] = vector.constant_mask [3] : vector<8xi1>
// CHECK:   vector.maskedload %{{.*}}[%[[R]], %{{.*}}], %[[MASK]]
// CHECK:   %[[SUB:.*]] = arith.maxsi
// CHECK:   %[[SCALED:.*]] = arith.muli %[[SUB]], %[[STRIDE]]
// CHECK:   %[[AT:.*]] = arith.addi %[[SCALED]], %[[COLUMNS]]
// CHECK:   %[[V:.*]] = vector.gather %{{.*}}[%{{.*}}, %{{.*}}] [%[[AT]]], %[[MASK]]
// CHECK:   vector.maskedstore %{{.*}}[%[[R]], %{{.*}}], %[[MASK]], %[[V]]
func.func @gather_elements_axis_0_check(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = gather.gather_elements %d[%i] : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// validate-rows: each row is gathered while no index has failed, its
/// indices checked on the way (clamped subscripts: a bad index reads
/// nothing out of bounds) and a bad one flagged; a flagged row is scanned
/// again to report its first bad index, through the hook after the loops.
// CHECK-LABEL: func.func @rows_checked_then_gathered
// ROWS-LABEL: func.func @rows_checked_then_gathered
// ROWS: %[[REPORT:.*]] = memref.alloca() : memref<4xi64>
// ROWS: %[[FLAG:.*]] = memref.alloca() : memref<i1>
// ROWS: affine.for %[[ROW:.*]] = 0 to
// ROWS:   %[[F0:.*]] = memref.load %[[REPORT]][%c0
// ROWS:   %[[CLEAN:.*]] = arith.cmpi eq, %[[F0]]
// ROWS:   scf.if %[[CLEAN]] {
// ROWS:     affine.for
// ROWS:       %[[LOW:.*]] = arith.minsi
// ROWS:       %[[SUB:.*]] = arith.maxsi %[[LOW]]
// ROWS:       %[[BAD:.*]] = arith.cmpi uge
// ROWS:       %[[ANY:.*]] = vector.reduction <or>, %[[BAD]]
// ROWS:       scf.if %[[ANY]] {
// ROWS-NEXT:    memref.store %true{{.*}}, %[[FLAG]][]
// ROWS:       vector.gather %{{.*}}[%[[ROW]], %{{.*}}] [%[[SUB]]]
// ROWS:     %[[FLAGGED:.*]] = memref.load %[[FLAG]][]
// ROWS:     scf.if %[[FLAGGED]] {
// ROWS:       vector.reduction <or>
// ROWS: func.call @gather_mlir_index_error
/// With scalar loads a row first takes its vectors whose indices are all
/// positions in it (one unsigned compare against its size, the next
/// vector's tested while this one is gathered): each lane's index is read
/// as a scalar and is its subscript, with nothing to clamp or flag.
// SCALAR-ROWS-LABEL: func.func @rows_checked_then_gathered
// SCALAR-ROWS: %[[FLAG:.*]] = memref.alloca() : memref<i1>
// SCALAR-ROWS: affine.for %[[ROW:.*]] = 0 to
// SCALAR-ROWS:   %[[NONEMPTY:.*]] = arith.cmpi sgt
// SCALAR-ROWS:   scf.if %[[NONEMPTY]] {
// SCALAR-ROWS:     %[[FIRST:.*]] = scf.if %{{.*}} -> (i1) {
// SCALAR-ROWS:       vector.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x?xi32>, vector<8xi32>
// SCALAR-ROWS:       %[[IN:.*]] = arith.cmpi ult
// SCALAR-ROWS:       vector.reduction <and>, %[[IN]]
// SCALAR-ROWS:     %[[FAST:.*]]:2 = scf.while (%{{.*}} = %{{.*}}, %[[OK:.*]] = %[[FIRST]])
// SCALAR-ROWS:       scf.condition(%[[OK]])
// SCALAR-ROWS:     } do {
// SCALAR-ROWS:       %[[NEXT:.*]] = scf.if %{{.*}} -> (i1) {
// SCALAR-ROWS:         vector.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x?xi32>, vector<8xi32>
// SCALAR-ROWS:         arith.cmpi ult
// SCALAR-ROWS-NOT:   arith.minsi
// SCALAR-ROWS-NOT:   memref.store
// SCALAR-ROWS:       %[[I0:.*]] = memref.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x?xi32>
// SCALAR-ROWS:       %[[E0:.*]] = arith.extsi %[[I0]] : i32 to i64
// SCALAR-ROWS:       %[[AT0:.*]] = arith.index_cast %[[E0]]
// SCALAR-ROWS:       memref.load %{{.*}}[%[[ROW]], %[[AT0]]] : memref<?x?xf32>
// SCALAR-ROWS-NOT:   arith.minsi
// SCALAR-ROWS-NOT:   memref.store
// SCALAR-ROWS:       vector.store
// SCALAR-ROWS:       scf.yield %{{.*}}, %[[NEXT]]
/// The rest of the row, from its first vector with another index: the
/// subscripts are computed a vector at a time, then read one lane each; an
/// empty data row reads nothing and flags every index.
// SCALAR-ROWS:     scf.for %{{.*}} = %[[FAST]]#0 to
// SCALAR-ROWS:       %[[LOW:.*]] = arith.minsi
// SCALAR-ROWS:       %[[SUB:.*]] = arith.maxsi %[[LOW]]
// SCALAR-ROWS:       vector.reduction <or>
// SCALAR-ROWS-NEXT:  scf.if
// SCALAR-ROWS-NEXT:    memref.store %true{{.*}}, %[[FLAG]][]
// SCALAR-ROWS-NOT:   vector.gather
// SCALAR-ROWS:       %[[LANE:.*]] = vector.extract %[[SUB]][0]
// SCALAR-ROWS:       %[[AT:.*]] = arith.index_cast %[[LANE]]
// SCALAR-ROWS:       %[[V:.*]] = memref.load %{{.*}}[%[[ROW]], %[[AT]]] : memref<?x?xf32>
// SCALAR-ROWS:       vector.insert %[[V]], %{{.*}} [0]
// SCALAR-ROWS:       %[[LAST:.*]] = vector.insert %{{.*}} [7]
// SCALAR-ROWS:       vector.store %[[LAST]], %{{.*}}[%[[ROW]], %{{.*}}]
/// A partial last vector, one element an iteration (a masked vector of
/// scalar loads reads every lane): a bad index is flagged and not read.
// SCALAR-ROWS-NOT:   vector.maskedstore
// SCALAR-ROWS:       {{(scf|affine)}}.for
// SCALAR-ROWS:         memref.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x?xi32>
// SCALAR-ROWS:         scf.if %{{.*}} {
// SCALAR-ROWS-NEXT:      memref.store %true{{.*}}, %[[FLAG]][]
// SCALAR-ROWS-NEXT:    } else {
// SCALAR-ROWS:           memref.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x?xf32>
// SCALAR-ROWS-NEXT:      memref.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x?xf32>
/// Rows written with cached stores (the branch above streams them) take
/// the same loops.
// SCALAR-ROWS:     } else {
// SCALAR-ROWS:       scf.while
// SCALAR-ROWS:       scf.for
// SCALAR-ROWS-NOT:   vector.maskedstore
// SCALAR-ROWS:       {{(scf|affine)}}.for
// SCALAR-ROWS:           memref.store %true{{.*}}, %[[FLAG]][]
// SCALAR-ROWS:         } else {
// SCALAR-ROWS:           memref.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x?xf32>
/// Along an empty axis every index of a non-empty row is bad: nothing is
/// read, the row is flagged.
// SCALAR-ROWS:   } else {
// SCALAR-ROWS-NOT:   memref.load
// SCALAR-ROWS:     %[[ANY:.*]] = arith.cmpi sgt
// SCALAR-ROWS:     scf.if %[[ANY]] {
// SCALAR-ROWS-NEXT:  memref.store %true{{.*}}, %[[FLAG]][]
// SCALAR-ROWS-NOT: vector.gather
// SCALAR-ROWS: func.call @gather_mlir_index_error
func.func @rows_checked_then_gathered(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

/// With threads, each gathers and checks its rows; a slab with a bad row
/// skips its later rows and takes part in an atomic min of the first bad
/// slab, which is checked again after the loop to report its first bad
/// index. Outermost dims of fewer than 64 positions take pieces instead
/// (@few_rows_checked_on_threads).
// THREAD-ROWS-LABEL: func.func @many_rows_checked_on_threads
// THREAD-ROWS-NOT: arith.ceildivui
// THREAD-ROWS: %[[FIRST:.*]] = memref.alloca() : memref<1xi64>
// THREAD-ROWS: scf.parallel (%[[ROW:.*]]) =
// THREAD-ROWS:   memref.alloca_scope
// THREAD-ROWS:     %[[FLAG:.*]] = memref.alloca() : memref<i1>
// THREAD-ROWS:     %[[F:.*]] = memref.load %[[FLAG]][]
// THREAD-ROWS:     %[[CLEAN:.*]] = arith.cmpi eq, %[[F]]
// THREAD-ROWS:     scf.if %[[CLEAN]] {
// THREAD-ROWS:       vector.reduction <or>
// THREAD-ROWS-NEXT:  scf.if
// THREAD-ROWS-NEXT:    memref.store %true{{.*}}, %[[FLAG]][]
// THREAD-ROWS:       memref.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<?x?xf32>
// THREAD-ROWS:     %[[FLAGGED:.*]] = memref.load %[[FLAG]][]
// THREAD-ROWS:     scf.if %[[FLAGGED]] {
// THREAD-ROWS:       memref.atomic_rmw mins %{{.*}}, %[[FIRST]]
// THREAD-ROWS: %[[BAD:.*]] = memref.load %[[FIRST]]
// THREAD-ROWS: %[[ANY:.*]] = arith.cmpi slt, %[[BAD]]
// THREAD-ROWS: scf.if %[[ANY]] {
// THREAD-ROWS:   memref.subview
// THREAD-ROWS:   func.call @gather_mlir_index_error
func.func @many_rows_checked_on_threads(%d: tensor<?x?xf32>, %i: tensor<64x?xi32>) -> tensor<64x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<64x?xi32>) -> tensor<64x?xf32>
  return %r : tensor<64x?xf32>
}

// -----

/// validate-rows with one row on threads: threads take the row in pieces,
/// each checked as it is gathered (its own flag, the first flagged piece
/// by an atomic min); if one was flagged, the row is scanned again to
/// report the first bad index.
// THREAD-ROWS-LABEL: func.func @one_row_checked_on_threads
// THREAD-ROWS: %[[PIECES:.*]] = arith.ceildivui %{{.*}}, %c4096
// THREAD-ROWS: %[[FIRST:.*]] = memref.alloca() : memref<1xi64>
// THREAD-ROWS: scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[PIECES]])
// THREAD-ROWS:   memref.alloca_scope
// THREAD-ROWS:     %[[FLAG:.*]] = memref.alloca() : memref<i1>
// THREAD-ROWS:     vector.reduction <or>
// THREAD-ROWS-NEXT: scf.if
// THREAD-ROWS-NEXT:   memref.store %true{{.*}}, %[[FLAG]][]
// THREAD-ROWS:     memref.atomic_rmw mins %{{.*}}, %[[FIRST]]
// THREAD-ROWS: %[[BAD:.*]] = memref.load %[[FIRST]]
// THREAD-ROWS: %[[ANY:.*]] = arith.cmpi slt, %[[BAD]]
// THREAD-ROWS: scf.if %[[ANY]] {
// THREAD-ROWS:   func.call @gather_mlir_index_error
// THREAD-ROWS-NOT: func.call
// THREAD-ROWS: return
func.func @one_row_checked_on_threads(%d: tensor<?xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

/// Outer dims of static size 1 leave one row: threads take it in pieces of
/// 4096, as a 1-D row, not the one position of the outer dim.
// THREAD-ROWS-LABEL: func.func @one_row_behind_a_unit_dim
// THREAD-ROWS: %[[PIECES:.*]] = arith.ceildivui %{{.*}}, %c4096
// THREAD-ROWS: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[PIECES]])
// THREAD-ROWS: return
func.func @one_row_behind_a_unit_dim(%d: tensor<1x?xf32>, %i: tensor<1x?xi64>) -> tensor<1x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64, mode = #gather<mode clamp>} : (tensor<1x?xf32>, tensor<1x?xi64>) -> tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}

// -----

/// Outer dims known only at run time: where the outermost has fewer than 64
/// positions, threads take (position, piece) pairs, each piece checked as
/// it is gathered (the same test as the unchecked nests,
/// KernelEmitter::fewLongRows); else slabs of whole rows, as above.
// THREAD-ROWS-LABEL: func.func @few_rows_checked_on_threads
// THREAD-ROWS: %[[FEW:.*]] = arith.cmpi ult, %{{.*}}, %c64
// THREAD-ROWS: scf.if %[[FEW]] {
// THREAD-ROWS:   %[[PIECES:.*]] = arith.ceildivui %{{.*}}, %c4096
// THREAD-ROWS:   %[[ITEMS:.*]] = arith.muli %{{.*}}, %[[PIECES]]
// THREAD-ROWS:   scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[ITEMS]])
// THREAD-ROWS:     arith.remui %[[K]], %[[PIECES]]
// THREAD-ROWS:     arith.divui %[[K]], %[[PIECES]]
// THREAD-ROWS:     memref.atomic_rmw mins
// THREAD-ROWS: return
func.func @few_rows_checked_on_threads(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
