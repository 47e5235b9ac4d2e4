// RUN: gather-opt %s --convert-gather-to-loops="prefetch-distance=16 streaming-min-bytes=-1 aligned-row-min-bytes=-1 memcpy-row-min-bytes=-1" --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops --split-input-file | FileCheck %s --check-prefix=ROWS
// RUN: gather-opt %s --convert-gather-to-loops="row-prefetch-bytes=0" --split-input-file | FileCheck %s --check-prefix=OFF

// OFF-NOT: memref.prefetch

/// gather_nd with 128-byte slices: 16 tuples ahead, when there is such a
/// tuple, its components are read and clamped into their dims, and the
/// slice's first element is prefetched. The test that no indexed dim is
/// empty runs once, before the loops.
// ROWS-LABEL: func.func @nd_tuples
// ROWS-NOT: memref.prefetch
// ROWS-LABEL: func.func @dynamic_rows
// CHECK-LABEL: func.func @nd_tuples
// CHECK: %[[NE0:.*]] = arith.cmpi sgt, %{{.*}}, %c0_i64
// CHECK: %[[NE1:.*]] = arith.cmpi sgt, %{{.*}}, %c0_i64
// CHECK: %[[WORTH:.*]] = arith.andi %[[NE0]], %[[NE1]]
// CHECK: affine.for %[[P:.*]] = 0 to
// CHECK:   %[[NEXT:.*]] = arith.addi %[[P]], %c16
// CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[NEXT]]
// CHECK:   %[[DO:.*]] = arith.andi %[[WORTH]], %[[IN]]
// CHECK:   scf.if %[[DO]] {
// CHECK:     memref.load %{{.*}}[%[[NEXT]], %c0
// CHECK:     memref.load %{{.*}}[%[[NEXT]], %c1
// CHECK:     arith.minsi
// CHECK:     arith.maxsi
// CHECK:     memref.prefetch %{{.*}}, read, locality<3>, data
func.func @nd_tuples(%d: tensor<?x?x32xf32>, %i: tensor<?x2xi64>) -> tensor<?x32xf32> {
  %r = gather.gather_nd %d[%i] : (tensor<?x?x32xf32>, tensor<?x2xi64>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// -----

/// Rows of a length known only at run time: their size is tested too
/// (without prefetch-distance: at least 2048 bytes, twice the 1024 of a
/// long row's that are prefetched).
// ROWS: %[[LONG:.*]] = arith.cmpi uge, %dim{{.*}}, %c512{{.*}} : index
// ROWS: affine.for %[[P:.*]] = 0 to
// ROWS:   %[[NEXT:.*]] = arith.addi %[[P]], %c2
// ROWS:   %[[IN:.*]] = arith.cmpi ult, %[[NEXT]]
// ROWS:   %[[DO:.*]] = arith.andi %{{.*}}, %[[IN]]
// ROWS:   scf.if %[[DO]] {
// ROWS-COUNT-16: memref.prefetch
// ROWS-NOT: memref.prefetch
// ROWS: }
// ROWS-LABEL: func.func @long_rows
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[ROW:.*]] = arith.muli %dim{{.*}}, %c4{{.*}} : index
// CHECK-NEXT: arith.constant 512
// CHECK-NEXT: arith.cmpi ule, %[[ROW]], %c512
// CHECK: affine.for
// CHECK:   memref.prefetch
func.func @dynamic_rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

/// Rows known to be longer than 512 bytes: their first 1024 bytes, a line
/// every 16 f32, two rows ahead (the hardware streams the rest).
// CHECK-LABEL: func.func @long_rows
// CHECK: affine.for %[[P:.*]] = 0 to
// CHECK:   %[[NEXT:.*]] = arith.addi %[[P]], %c2
// CHECK:   scf.if
// CHECK:     %[[ROW:.*]] = arith.index_cast
// CHECK:     memref.prefetch %{{.*}}[%[[ROW]], %c0{{.*}}], read, locality<3>, data : memref<?x1024xf32>
// CHECK:     memref.prefetch %{{.*}}[%[[ROW]], %c16{{.*}}], read, locality<3>, data : memref<?x1024xf32>
// CHECK-COUNT-13: memref.prefetch
// CHECK:     memref.prefetch %{{.*}}[%[[ROW]], %c240{{.*}}], read, locality<3>, data : memref<?x1024xf32>
// CHECK-NOT: memref.prefetch
// ROWS-COUNT-16: memref.prefetch
// ROWS-NOT: memref.prefetch
// ROWS-LABEL: func.func @batch_only
// ROWS-NOT: memref.prefetch
func.func @long_rows(%d: tensor<?x1024xf32>, %i: tensor<?xi64>) -> tensor<?x1024xf32> {
  %r = gather.gather %d[%i] : (tensor<?x1024xf32>, tensor<?xi64>) -> tensor<?x1024xf32>
  return %r : tensor<?x1024xf32>
}

// -----

/// With batch dims only, the innermost loop is not over index positions.
// CHECK-LABEL: func.func @batch_only
// CHECK-NOT: memref.prefetch
func.func @batch_only(%d: tensor<?x?x8xf32>, %i: tensor<?x1xi64>) -> tensor<?x8xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<?x?x8xf32>, tensor<?x1xi64>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
