// Scatters partitioned across processes (gather-shard-partition), lowered
// (gather-to-llvm: convert-shard-to-mpi, MPI calls), built as a library and
// called under mpirun by a driver that holds only its shard of each split
// operand and compares the result with its slice of the unsharded op's.
// 2 processes, then 4 (grid of 4).
//
// RUN: gather-opt %s --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.2.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.2.ll %mpi_link -o %t.2.so
// RUN: gather-opt %S/Inputs/sharded-scatters-driver.mlir --gather-to-llvm -o %t.driver.mlir
// RUN: %mpirun -np 2 %mlir_run_mpi,%t.2.so -e main %t.driver.mlir | FileCheck %s
//
// RUN: sed 's/shape = 2/shape = 4/' %s | gather-opt --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.4.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.4.ll %mpi_link -o %t.4.so
// RUN: %mpirun -np 4 %mlir_run_mpi,%t.4.so -e main %t.driver.mlir | FileCheck %s

// Rank 0 prints its result's first row (worked by hand) and the number of
// elements that differ, bit for bit, from the unsharded op's on any
// process.
// CHECK-LABEL: rows_owned
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: {{\[}}[8,   9,   10,   11]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// CHECK-LABEL: updates_split
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: {{\[}}[0,   0,   0,   0]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]

shard.grid @grid(shape = 2)

/// The gradient of a table split by rows: each process applies the updates
/// that land in its rows (wrap resolves against the whole 8 rows), no
/// communication.
func.func @rows_owned(%grad: tensor<8x4xf32>, %ids: tensor<6xi64>, %u: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %d = shard.shard %grad to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.scatter %d[%ids], %u {mode = #gather<mode wrap>, reduction = #gather<combine add>} : (tensor<8x4xf32>, tensor<6xi64>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %r1 = shard.shard %r to %s : tensor<8x4xf32>
  return %r1 : tensor<8x4xf32>
}

/// Updates split by batch, dest whole: gathered on every process and
/// applied in order, so the float sums are the sequential loop's.
func.func @updates_split(%grad: tensor<8x4xf32>, %ids: tensor<8xi64>, %u: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %s annotate_for_users : tensor<8xi64>
  %uu = shard.shard %u to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.scatter %grad[%i], %uu {reduction = #gather<combine add>} : (tensor<8x4xf32>, tensor<8xi64>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
