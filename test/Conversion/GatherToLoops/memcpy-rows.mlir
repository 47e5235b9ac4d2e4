// RUN: gather-opt %s --convert-gather-to-loops="streaming-min-bytes=-1" --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops="streaming-min-bytes=-1 memcpy-row-min-bytes=-1" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=NEVER
// RUN: gather-opt %s --convert-gather-to-loops="streaming-min-bytes=0" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=STREAM
// RUN: gather-opt %s --split-input-file --gather-to-llvm | mlir-translate --split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

/// Rows copied whole of at least 4096 bytes (memcpy-row-min-bytes) are a
/// call of memcpy from the data row to the result row, at addresses from
/// both memrefs' metadata. A static row decides when the kernel is built.
// CHECK-LABEL: func.func @long_static_rows
// CHECK: affine.for %[[J:.*]] =
// CHECK:   %[[TO:.*]] = llvm.inttoptr
// CHECK:   %[[FROM:.*]] = llvm.inttoptr
// CHECK:   "llvm.intr.memcpy"(%[[TO]], %[[FROM]], %c4096_i64) <{isVolatile = false}>
// CHECK-NOT: vector.store
// NEVER-LABEL: func.func @long_static_rows
// NEVER-NOT: llvm.intr.memcpy
// NEVER: vector.store
// NEVER-NOT: llvm.intr.memcpy
// LLVM-LABEL: define {{.*}} @long_static_rows
// LLVM: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}, ptr {{.*}}, i64 4096, i1 false)
func.func @long_static_rows(%d: tensor<?x1024xf32>, %i: tensor<?xi64>) -> tensor<?x1024xf32> {
  %r = gather.gather %d[%i] : (tensor<?x1024xf32>, tensor<?xi64>) -> tensor<?x1024xf32>
  return %r : tensor<?x1024xf32>
}

// -----

/// Static rows under 4096 bytes keep the vector loops.
// CHECK-LABEL: func.func @short_static_rows
// CHECK-NOT: llvm.intr.memcpy
// CHECK: vector.store
// CHECK-NOT: llvm.intr.memcpy
// CHECK: return
func.func @short_static_rows(%d: tensor<?x1000xf32>, %i: tensor<?xi64>) -> tensor<?x1000xf32> {
  %r = gather.gather %d[%i] : (tensor<?x1000xf32>, tensor<?xi64>) -> tensor<?x1000xf32>
  return %r : tensor<?x1000xf32>
}

// -----

/// Rows of a length known only at run time: their bytes are tested before
/// the loops; long rows are memcpy's, the rest vector loops. Where the
/// result is large enough to stream, streamed rows are never memcpy's.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c2 : index
// CHECK: %[[LONG:.*]] = arith.cmpi uge, %[[BYTES]], %c4096 : index
// CHECK: affine.for
// CHECK:   scf.if %[[LONG]] {
// CHECK:     "llvm.intr.memcpy"
// CHECK:   } else {
// CHECK:     vector.store
// STREAM-LABEL: func.func @dynamic_rows
// STREAM: %[[NOT:.*]] = arith.xori %{{.*}}, %true : i1
// STREAM: %[[COPIED:.*]] = arith.andi %{{.*}}, %[[NOT]] : i1
// STREAM: scf.if %[[COPIED]] {
// STREAM:   "llvm.intr.memcpy"
func.func @dynamic_rows(%d: tensor<?x?xf16>, %i: tensor<?xi64>) -> tensor<?x?xf16> {
  %r = gather.gather %d[%i] : (tensor<?x?xf16>, tensor<?xi64>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// -----

/// Slices of several dims are one row when both memrefs hold them
/// contiguously: 8x512 i8 elements, 4096 bytes.
// CHECK-LABEL: func.func @collapsed_slices
// CHECK: memref.collapse_shape
// CHECK: "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %c4096_i64)
func.func @collapsed_slices(%d: tensor<?x8x512xi8>, %i: tensor<?xi32>) -> tensor<?x8x512xi8> {
  %r = gather.gather %d[%i] : (tensor<?x8x512xi8>, tensor<?xi32>) -> tensor<?x8x512xi8>
  return %r : tensor<?x8x512xi8>
}
