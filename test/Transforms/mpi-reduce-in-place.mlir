// RUN: gather-opt %s --gather-mpi-reduce-in-place -split-input-file | FileCheck %s

/// convert-shard-to-mpi's copy of a fresh partial result goes: the result
/// is reduced in its own buffer.
// CHECK-LABEL: func.func @partial_result
// CHECK: %[[A:.*]] = memref.alloc() : memref<4x2xf32>
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.copy
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[A]]
// CHECK: mpi.allreduce(%[[FLAT]], %[[FLAT]], MPI_SUM
// CHECK: return %[[A]]
func.func @partial_result(%v: f32, %i: index) -> memref<4x2xf32> {
  %a = memref.alloc() : memref<4x2xf32>
  memref.store %v, %a[%i, %i] : memref<4x2xf32>
  %b = memref.alloc() : memref<4x2xf32>
  linalg.copy ins(%a : memref<4x2xf32>) outs(%b : memref<4x2xf32>)
  %world = mpi.comm_world : !mpi.comm
  %flat = memref.collapse_shape %b [[0, 1]] : memref<4x2xf32> into memref<8xf32>
  mpi.allreduce(%flat, %flat, MPI_SUM, %world) : memref<8xf32>, memref<8xf32>
  return %b : memref<4x2xf32>
}

// -----

/// The source is read after the copy: the copy stays.
// CHECK-LABEL: func.func @source_read_after
// CHECK: linalg.copy
func.func @source_read_after(%i: index) -> f32 {
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  linalg.copy ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  %world = mpi.comm_world : !mpi.comm
  mpi.allreduce(%b, %b, MPI_SUM, %world) : memref<8xf32>, memref<8xf32>
  %x = memref.load %a[%i] : memref<8xf32>
  return %x : f32
}

// -----

/// A view of the source may be read after the copy: the copy stays.
// CHECK-LABEL: func.func @source_viewed
// CHECK: linalg.copy
func.func @source_viewed() -> memref<2x4xf32> {
  %a = memref.alloc() : memref<8xf32>
  %view = memref.expand_shape %a [[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
  %b = memref.alloc() : memref<8xf32>
  linalg.copy ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  %world = mpi.comm_world : !mpi.comm
  mpi.allreduce(%b, %b, MPI_SUM, %world) : memref<8xf32>, memref<8xf32>
  return %view : memref<2x4xf32>
}

// -----

/// A source that is an argument (the caller may read it): the copy stays.
// CHECK-LABEL: func.func @source_argument
// CHECK: linalg.copy
func.func @source_argument(%a: memref<8xf32>) -> memref<8xf32> {
  %b = memref.alloc() : memref<8xf32>
  linalg.copy ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  %world = mpi.comm_world : !mpi.comm
  mpi.allreduce(%b, %b, MPI_SUM, %world) : memref<8xf32>, memref<8xf32>
  return %b : memref<8xf32>
}
