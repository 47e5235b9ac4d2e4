// RUN: gather-opt %s --convert-gather-to-loops --canonicalize --split-input-file | FileCheck %s

/// A result stored into a caller's buffer is computed in that buffer: no
/// allocation, no copy.
// CHECK-LABEL: func.func @gather_into_destination
// CHECK-SAME: (%{{.*}}: memref<?x?xf32>, %{{.*}}: memref<?xi64>, %[[OUT:.*]]: memref<?x?xf32>)
// CHECK-NOT: memref.alloc(
// CHECK-NOT: materialize_in_destination
// CHECK: vector.store %{{.*}}, %[[OUT]]
// CHECK-NOT: memref.copy
func.func @gather_into_destination(%dm: memref<?x?xf32>, %im: memref<?xi64>, %om: memref<?x?xf32>) {
  %d = bufferization.to_tensor %dm restrict : memref<?x?xf32> to tensor<?x?xf32>
  %i = bufferization.to_tensor %im restrict : memref<?xi64> to tensor<?xi64>
  %r = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %om : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

// -----

/// A second use needs the value as a tensor: allocate as usual.
// CHECK-LABEL: func.func @negative_destination_second_use
// CHECK: memref.alloc(
// CHECK: bufferization.materialize_in_destination
func.func @negative_destination_second_use(%dm: memref<?x?xf32>, %im: memref<?xi64>, %om: memref<?x?xf32>) -> tensor<?x?xf32> {
  %d = bufferization.to_tensor %dm restrict : memref<?x?xf32> to tensor<?x?xf32>
  %i = bufferization.to_tensor %im restrict : memref<?xi64> to tensor<?xi64>
  %r = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %om : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return %r : tensor<?x?xf32>
}

// -----

/// A restrict to_tensor of a memref is read in place, in its own (here
/// strided) layout: no identity-layout copy, and no vector loads through a
/// stride that may not be 1.
// CHECK-LABEL: func.func @gather_reads_strided_buffer_in_place
// CHECK-SAME: (%[[D:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NOT: bufferization.to_buffer {{.*}} : tensor<?x?xf32>
// CHECK: memref.load %[[D]]
// CHECK-NOT: vector.load %[[D]]
func.func @gather_reads_strided_buffer_in_place(%dm: memref<?x?xf32, strided<[?, ?], offset: ?>>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %d = bufferization.to_tensor %dm restrict : memref<?x?xf32, strided<[?, ?], offset: ?>> to tensor<?x?xf32>
  %r = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
