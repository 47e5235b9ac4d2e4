// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=element" --cse | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops="column-block-min-bytes=-1" | FileCheck %s --check-prefix=NEVER
// RUN: gather-opt %s --convert-gather-to-loops="column-block-min-bytes=0" | FileCheck %s --check-prefix=ALWAYS

/// gather_elements along an axis before the last walks the last dim in
/// blocks of 256 bytes (64 f32), every position of the axis inside each,
/// where data from the axis on holds at least column-block-min-bytes (8 MiB
/// by default) and the axis at most 2048 positions: a run-time test for
/// dynamic sizes, both nests behind it (here with rows read one element
/// an iteration).
// CHECK-LABEL: func.func @dynamic
// CHECK: arith.muli
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli
// CHECK: %[[MIN:.*]] = arith.constant 8388608 : index
// CHECK: %[[BIG:.*]] = arith.cmpi uge, %[[BYTES]], %[[MIN]]
// CHECK: %[[MAX:.*]] = arith.constant 2048 : index
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %{{.*}}, %[[MAX]]
// CHECK: %[[BLOCKED:.*]] = arith.andi %[[BIG]], %[[FEW]]
// CHECK: scf.if %[[BLOCKED]]
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %{{.*}}, %[[C64]] : index
// CHECK: affine.for %[[B:.*]] = 0 to %[[BLOCKS]]
// CHECK: %[[START:.*]] = arith.muli %[[B]], %[[C64]]
// CHECK: %[[LEN:.*]] = arith.minui %[[C64]],
// CHECK: affine.for %[[P:.*]] = 0 to
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[LEN]]
// CHECK: %[[COL:.*]] = arith.addi %[[START]], %[[K]]
// CHECK: memref.load %{{.*}}[%[[P]], %[[COL]]] : memref<?x?xi64>
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[COL]]] : memref<?x?xf32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[P]], %[[COL]]] : memref<?x?xf32>
// CHECK: } else {
// CHECK: affine.for
// CHECK: scf.if
// CHECK-NEXT: affine.for
// NEVER-LABEL: func.func @dynamic
// NEVER-NOT: arith.ceildivui
// NEVER-LABEL: func.func @small
func.func @dynamic(%d: memref<?x?xf32>, %i: memref<?x?xi64>, %o: memref<?x?xf32>) {
  %dt = bufferization.to_tensor %d restrict : memref<?x?xf32> to tensor<?x?xf32>
  %it = bufferization.to_tensor %i restrict : memref<?x?xi64> to tensor<?x?xi64>
  %r = gather.gather_elements %dt[%it] {axis = 0 : i64, mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

/// Static sizes decide when the kernel is emitted: 64x1024 f32 (256 KiB)
/// keeps the row-major nest, unless column-block-min-bytes=0; along the last
/// axis there are no column blocks.
// CHECK-LABEL: func.func @small
// CHECK-NOT: arith.ceildivui
// CHECK-LABEL: func.func @last_axis
// CHECK-NOT: arith.ceildivui
// CHECK: return
// ALWAYS-LABEL: func.func @small
// ALWAYS: arith.ceildivui
// ALWAYS-LABEL: func.func @last_axis
// ALWAYS-NOT: arith.ceildivui
// ALWAYS: return
func.func @small(%d: tensor<64x1024xf32>, %i: tensor<64x1024xi32>) -> tensor<64x1024xf32> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<64x1024xf32>, tensor<64x1024xi32>) -> tensor<64x1024xf32>
  return %r : tensor<64x1024xf32>
}

func.func @last_axis(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
