// RUN: gather-opt %s --convert-gather-mpi-to-llvm -split-input-file | FileCheck %s
//
// The communicators convert-shard-to-mpi splits for each collective.

/// A split of constant color keeps every process: the all-reduce uses the
/// parent communicator and nothing is split (convert-shard-to-mpi splits on
/// every call, and LLVM 22 never frees what it splits).
// CHECK-LABEL: func.func @whole_split
// CHECK-NOT: MPI_Comm_split
// CHECK: %[[WORLD:.*]] = llvm.mlir.constant(1140850688 : i64) : i64
// CHECK: %[[W32:.*]] = llvm.trunc %[[WORLD]] : i64 to i32
// CHECK: llvm.call @MPI_Allreduce({{.*}}, %[[W32]])
// CHECK-NOT: MPI_Comm
// CHECK: return
module {
  func.func @whole_split(%buf: memref<4xf32>, %key: i32) {
    %c0 = arith.constant 0 : i32
    %world = mpi.comm_world : !mpi.comm
    %comm = mpi.comm_split(%world, %c0, %key) : !mpi.comm
    mpi.allreduce(%buf, %buf, MPI_SUM, %comm) : memref<4xf32>, memref<4xf32>
    return
  }
}

// -----

/// Any other split is freed after its last use; its cell is in the entry
/// block, so a split in a loop does not grow the stack.
// CHECK-LABEL: func.func @split_in_loop
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[CELL:.*]] = llvm.alloca %[[ONE]] x i32 : (i64) -> !llvm.ptr
// CHECK: scf.for
// CHECK: llvm.call @MPI_Comm_split(%{{.*}}, %{{.*}}, %{{.*}}, %[[CELL]])
// CHECK: %[[NEW:.*]] = llvm.load %[[CELL]] : !llvm.ptr -> i32
// CHECK: %[[NEW64:.*]] = llvm.zext %[[NEW]] : i32 to i64
// CHECK: %[[NEW32:.*]] = llvm.trunc %[[NEW64]] : i64 to i32
// CHECK: llvm.call @MPI_Allreduce({{.*}}, %[[NEW32]])
// CHECK: llvm.call @MPI_Allreduce
// CHECK-NEXT: llvm.call @MPI_Comm_free(%[[CELL]])
// CHECK-NEXT: }
module {
  func.func @split_in_loop(%buf: memref<4xf32>, %color: i32, %key: i32, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %world = mpi.comm_world : !mpi.comm
      %comm = mpi.comm_split(%world, %color, %key) : !mpi.comm
      mpi.allreduce(%buf, %buf, MPI_SUM, %comm) : memref<4xf32>, memref<4xf32>
      mpi.allreduce(%buf, %buf, MPI_MAX, %comm) : memref<4xf32>, memref<4xf32>
    }
    return
  }
}
