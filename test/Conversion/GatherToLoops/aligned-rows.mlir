// RUN: gather-opt %s --convert-gather-to-loops="streaming-min-bytes=-1 memcpy-row-min-bytes=-1" --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops="streaming-min-bytes=-1 aligned-row-min-bytes=-1 memcpy-row-min-bytes=-1" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=NEVER

/// Rows copied whole of at least 512 bytes (aligned-row-min-bytes) store
/// whole vectors at aligned addresses: a masked head up to the first
/// 32-byte-aligned element of the row, plain vector stores from there, a
/// masked tail. A static row decides when the kernel is built.
// CHECK-LABEL: func.func @long_static_rows
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: affine.for
// CHECK:   arith.subi %c0, %{{.*}} : index
// CHECK:   arith.andi %{{.*}}, %c31 : index
// CHECK:   scf.if
// CHECK:     vector.maskedstore
// CHECK:   scf.for
// CHECK:     vector.store
// CHECK-NOT: nontemporal
// CHECK:   vector.maskedstore
// NEVER-LABEL: func.func @long_static_rows
// NEVER-NOT: extract_aligned_pointer
// NEVER: affine.for
// NEVER:   affine.for
// NEVER:     vector.store
func.func @long_static_rows(%d: tensor<?x1000xf32>, %i: tensor<?xi64>) -> tensor<?x1000xf32> {
  %r = gather.gather %d[%i] : (tensor<?x1000xf32>, tensor<?xi64>) -> tensor<?x1000xf32>
  return %r : tensor<?x1000xf32>
}

// -----

/// Static rows under 512 bytes keep the plain loop, with nothing tested.
// CHECK-LABEL: func.func @short_static_rows
// CHECK-NOT: extract_aligned_pointer
// CHECK-NOT: vector.maskedstore
// CHECK: return
func.func @short_static_rows(%d: tensor<?x64xf32>, %i: tensor<?xi64>) -> tensor<?x64xf32> {
  %r = gather.gather %d[%i] : (tensor<?x64xf32>, tensor<?xi64>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// -----

/// Rows of a length known only at run time: their bytes are tested before
/// the loops, and each row takes the aligned or the plain copy.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c4 : index
// CHECK: %[[LONG:.*]] = arith.cmpi uge, %[[BYTES]], %c512 : index
// CHECK: affine.for
// CHECK:   scf.if %[[LONG]] {
// CHECK:     scf.for
// CHECK:       vector.store
// CHECK:   } else {
// CHECK:     affine.for
// CHECK:       vector.store
func.func @dynamic_rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
