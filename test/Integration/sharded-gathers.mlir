// Tables split across processes: the module is partitioned
// (gather-shard-partition), lowered (gather-to-llvm: convert-shard-to-mpi,
// MPI calls), built as a library, and called under mpirun by a driver that
// holds only its shard of each table and compares every result with the
// unsharded op on the whole table. 2 processes, then 4 (grid of 4).
//
// RUN: gather-opt %s --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.2.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.2.ll %mpi_link -o %t.2.so
// RUN: gather-opt %S/Inputs/sharded-driver.mlir --gather-to-llvm -o %t.driver.mlir
// RUN: %mpirun -np 2 %mlir_run_mpi,%t.2.so -e main %t.driver.mlir | FileCheck %s
//
// RUN: sed 's/shape = 2/shape = 4/' %s | gather-opt --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.4.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.4.ll %mpi_link -o %t.4.so
// RUN: %mpirun -np 4 %mlir_run_mpi,%t.4.so -e main %t.driver.mlir | FileCheck %s
//
// A bad id in check mode is an error on every process, named by the index
// hook as the unsharded op's is.
// RUN: gather-opt %S/Inputs/sharded-check-failure-driver.mlir --gather-to-llvm -o %t.fail.mlir
// RUN: not %mpirun -np 2 %mlir_run_mpi,%t.2.so -e main %t.fail.mlir 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: gather.gather: index 8 is out of range [-8, 7] for data dimension 0 of size 8

// The driver prints, for each kernel, rank 0's result and the number of
// elements that differ from the unsharded op on any process.
// CHECK-LABEL: rows_wrap
// CHECK:      {{\[}}[0, 1],
// CHECK-NEXT: [30, 31],
// CHECK-NEXT: [40, 41],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [10, 11],
// CHECK-NEXT: [70, 71]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// CHECK-LABEL: rows_fill
// CHECK:      {{\[}}[0, 1],
// CHECK-NEXT: [30, 31],
// CHECK-NEXT: [40, 41],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [0, 0]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// CHECK-LABEL: rows_clamp
// CHECK:      {{\[}}[0, 1],
// CHECK-NEXT: [30, 31],
// CHECK-NEXT: [40, 41],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [0, 1]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// CHECK-LABEL: rows_check
// CHECK:      {{\[}}[0, 1],
// CHECK-NEXT: [30, 31],
// CHECK-NEXT: [40, 41],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [70, 71],
// CHECK-NEXT: [50, 51],
// CHECK-NEXT: [0, 1]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// Bags: [1, 3 (padding), 7]; none; [11 -> 3 (padding), 2, 4, -10 -> 6].
// CHECK-LABEL: bag_sum
// CHECK:      {{\[}}[80, 82],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [120, 123]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// Bags [1, 3 (padding), 7]; none; [2, 4, 9 (fill: a zero row, counted), -2 -> 6].
// CHECK-LABEL: bag_mean
// CHECK:      {{\[}}[40, 41],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [30, 30.75]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// The negated table. Bags [1, 0 (padding), 7]; all padding; [5, 12 (fill:
// a zero row, which takes part), -3 -> 5]; [2, 6, -1 -> 7].
// CHECK-LABEL: bag_max
// CHECK:      {{\[}}[-10, -11],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [-20, -21]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]

shard.grid @grid(shape = 2)

func.func @rows_wrap(%table: tensor<8x2xf32>, %ids: tensor<7xi64>) -> tensor<7x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  return %r : tensor<7x2xf32>
}

func.func @rows_fill(%table: tensor<8x2xf32>, %ids: tensor<7xi64>) -> tensor<7x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64, mode = #gather<mode fill>} : (tensor<8x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  return %r : tensor<7x2xf32>
}

func.func @rows_clamp(%table: tensor<8x2xf32>, %ids: tensor<7xi64>) -> tensor<7x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64, mode = #gather<mode clamp>} : (tensor<8x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  return %r : tensor<7x2xf32>
}

func.func @rows_check(%table: tensor<8x2xf32>, %ids: tensor<7xi64>) -> tensor<7x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  return %r : tensor<7x2xf32>
}

func.func @bag_sum(%table: tensor<8x2xf32>, %ids: tensor<7xi64>, %offsets: tensor<3xi64>) -> tensor<3x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {reduction = #gather<reduction sum>, padding_idx = 3 : i64, mode = #gather<mode wrap>} : (tensor<8x2xf32>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @bag_mean(%table: tensor<8x2xf32>, %ids: tensor<7xi64>, %offsets: tensor<3xi64>) -> tensor<3x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {reduction = #gather<reduction mean>, padding_idx = 3 : i64, mode = #gather<mode fill>} : (tensor<8x2xf32>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @bag_max(%table: tensor<8x2xf32>, %ids: tensor<4x3xi64>) -> tensor<4x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction max>, padding_idx = 0 : i64, mode = #gather<mode fill>} : (tensor<8x2xf32>, tensor<4x3xi64>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
