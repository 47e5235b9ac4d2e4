// RUN: gather-opt %s --convert-gather-to-loops --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops="streaming-min-bytes=-1" --split-input-file | FileCheck %s --check-prefix=NEVER

/// Rows of a result whose size is known only at run time: one test before
/// the loops (result bytes >= 40 MiB, rows >= 256 bytes when every row
/// starts 32-byte aligned (the base and the row stride), else >= 2048,
/// elements aligned to their size) chooses between streaming and cached row
/// copies. A streamed row is a masked head up to the first 32-byte-aligned
/// element, aligned non-temporal vectors and a masked tail; a fence follows
/// the loops.
// CHECK-LABEL: func.func @embedding
// CHECK: %[[BYTES:.*]] = arith.muli
// CHECK: memref.extract_strided_metadata %[[OUT:.*]] :
// CHECK: memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: %[[MIN:.*]] = arith.constant 41943040 : index
// CHECK: %[[LARGE:.*]] = arith.cmpi uge, %{{.*}}, %[[MIN]] : index
// CHECK: %[[STRIDE:.*]] = arith.muli %strides#0, %c4
// CHECK: %[[OFFSETS:.*]] = arith.ori %{{.*}}, %[[STRIDE]] : index
// CHECK: %[[MISALIGNED:.*]] = arith.andi %[[OFFSETS]], %c31
// CHECK: %[[ROWS_ALIGNED:.*]] = arith.cmpi eq, %[[MISALIGNED]], %c0
// CHECK: %[[ROW_BYTES:.*]] = arith.muli
// CHECK: %[[MIN_ROW:.*]] = arith.select %[[ROWS_ALIGNED]], %c256, %c2048 : index
// CHECK: %[[LONG:.*]] = arith.cmpi uge, %[[ROW_BYTES]], %[[MIN_ROW]] : index
// CHECK: %[[STREAM:.*]] = arith.andi %[[LARGE]], %{{.*}} : i1
// CHECK: affine.for
// CHECK:   scf.if %[[STREAM]] {
// CHECK:     arith.andi %{{.*}}, %c31
// CHECK:     scf.if
// CHECK:       vector.maskedload
// CHECK:       vector.maskedstore
// CHECK:     scf.for
// CHECK:       vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true}
// CHECK:   } else {
// CHECK:     vector.store
// CHECK-NOT:   nontemporal
// CHECK: scf.if %[[STREAM]] {
// CHECK-NEXT: llvm.fence seq_cst
// NEVER-LABEL: func.func @embedding
// NEVER-NOT: nontemporal
// NEVER-NOT: llvm.fence
func.func @embedding(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

/// gather_nd slices collapse to one row; the same choice applies to it.
// CHECK-LABEL: func.func @nd_slices
// CHECK: memref.collapse_shape
// CHECK: vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true}
func.func @nd_slices(%d: tensor<?x?x?x?xf16>, %i: tensor<?x2xi32>) -> tensor<?x?x?xf16> {
  %r = gather.gather_nd %d[%i] : (tensor<?x?x?x?xf16>, tensor<?x2xi32>) -> tensor<?x?x?xf16>
  return %r : tensor<?x?x?xf16>
}

// -----

/// Statically small: a result under the threshold, or rows under 256
/// bytes, never stream, and nothing is tested at run time (rows of 512
/// bytes or more, such as small_result's, still store aligned vectors:
/// aligned-rows.mlir).
// CHECK-LABEL: func.func @small_result
// CHECK-NOT: nontemporal
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT: nontemporal
// CHECK-NOT: extract_aligned_pointer
func.func @small_result(%d: tensor<1000x1024xf32>, %i: tensor<64xi64>) -> tensor<64x1024xf32> {
  %r = gather.gather %d[%i] : (tensor<1000x1024xf32>, tensor<64xi64>) -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}
func.func @short_rows(%d: tensor<?x32xf32>, %i: tensor<?xi64>) -> tensor<?x32xf32> {
  %r = gather.gather %d[%i] : (tensor<?x32xf32>, tensor<?xi64>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// -----

/// Rows gathered along the last axis (gather_elements, gather along the
/// last axis) follow the same rule: a streamed row is a masked head, aligned
/// vectors each gathered and stored non-temporally, and a masked tail; a
/// fence follows the loops.
// CHECK-LABEL: func.func @elements
// CHECK: %[[MIN:.*]] = arith.constant 41943040 : index
// CHECK: %[[LARGE:.*]] = arith.cmpi uge, %{{.*}}, %[[MIN]] : index
// CHECK: %[[STREAM:.*]] = arith.andi %[[LARGE]], %{{.*}} : i1
// CHECK: scf.if %[[STREAM]] {
// CHECK:   arith.andi %{{.*}}, %c31
// CHECK:   scf.if
// CHECK:     vector.gather
// CHECK:     vector.maskedstore
// CHECK:   scf.for
// CHECK:     %[[G:.*]] = vector.gather
// CHECK:     vector.store %[[G]], %{{.*}} {alignment = 32 : i64, nontemporal = true}
// CHECK: } else {
// CHECK:   vector.gather
// CHECK-NOT: nontemporal
// CHECK: scf.if %[[STREAM]] {
// CHECK-NEXT: llvm.fence seq_cst
// NEVER-LABEL: func.func @elements
// NEVER-NOT: nontemporal
// NEVER-NOT: llvm.fence
func.func @elements(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
