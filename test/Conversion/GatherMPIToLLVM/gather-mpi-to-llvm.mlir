// RUN: gather-opt %s --convert-gather-mpi-to-llvm -split-input-file -verify-diagnostics | FileCheck %s

/// mpi ops become calls of MPICH's ABI; the grid and the DLTI entry the
/// pass added are gone (LLVM's tools cannot read them).
// CHECK-NOT: dlti
// CHECK-NOT: shard.grid
// CHECK-LABEL: func.func @rank
// CHECK: llvm.call @MPI_Init
// CHECK: llvm.mlir.constant(1140850688 : i64)
// CHECK: llvm.call @MPI_Comm_rank
// CHECK-NOT: mpi.
module {
  shard.grid @grid(shape = 2)
  func.func @rank() -> i32 {
    %e0 = mpi.init : !mpi.retval
    %comm = mpi.comm_world : !mpi.comm
    %e1, %rank = mpi.comm_rank(%comm) : !mpi.retval, i32
    return %rank : i32
  }
}

// -----

/// A module's own DLTI map is kept as it was.
// CHECK: module attributes {dlti.map = #dlti.map<"other" = 7 : i64>}
// CHECK: llvm.call @MPI_Init
module attributes {dlti.map = #dlti.map<"other" = 7 : i64>} {
  func.func @init() {
    %e0 = mpi.init : !mpi.retval
    return
  }
}

// -----

/// A module without mpi ops (a partition whose splits need no
/// communication) loses only the grids that nothing refers to.
// CHECK-NOT: shard.grid @unused
// CHECK: shard.grid @used(shape = 2)
// CHECK-NOT: shard.grid @unused
// CHECK-NOT: llvm.
// CHECK-LABEL: func.func @no_mpi
module {
  shard.grid @unused(shape = 2)
  shard.grid @used(shape = 2)
  func.func @no_mpi() -> !shard.sharding {
    %s = shard.sharding @used split_axes = [[0]] : !shard.sharding
    return %s : !shard.sharding
  }
}

// -----

// expected-error @+1 {{MPI implementation "OpenMPI" is not supported: LLVM 22 lowers MPI calls correctly for MPICH's ABI only (its Open MPI lowering truncates communicators to 32 bits)}}
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  func.func @init() {
    %e0 = mpi.init : !mpi.retval
    return
  }
}

// -----

/// LLVM 22 names no MPI datatype for f16: the call would abort at run time.
func.func @allreduce_f16(%buf: memref<4xf16>) {
  %comm = mpi.comm_world : !mpi.comm
  // expected-error @+1 {{'mpi.allreduce' op has a buffer of element type 'f16', for which MPI calls have no datatype (f32, f64 and 8- to 64-bit integers have one)}}
  mpi.allreduce(%buf, %buf, MPI_SUM, %comm) : memref<4xf16>, memref<4xf16>
  return
}
