// A sharded kernel called more often than MPICH has communicators (2048);
// without the frees it aborts with "Too many communicators":
// convert-shard-to-mpi splits a communicator for every all-reduce, which
// convert-gather-mpi-to-llvm frees after its use (2x2 grid: the split's
// color comes from the second axis) or does without (1-D grid).
//
// RUN: gather-opt %s --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.ll %mpi_link -o %t.so
// RUN: gather-opt %S/Inputs/sharded-many-calls-driver.mlir --gather-to-llvm -o %t.driver.mlir
// RUN: %mpirun -np 4 %mlir_run_mpi,%t.so -e main %t.driver.mlir | FileCheck %s

// Rank 0 prints the sum of element [1, 1] (row 3: 31) of the 2x2 grid's
// 2100 results, and that element of the 1-D grid's result.
// CHECK: [65100, 31]

shard.grid @grid2x2(shape = 2x2)
shard.grid @grid(shape = 4)

func.func @split_2x2(%table: tensor<8x2xf32>, %ids: tensor<3xi64>) -> tensor<3x2xf32> {
  %s = shard.sharding @grid2x2 split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @split_1d(%table: tensor<8x2xf32>, %ids: tensor<3xi64>) -> tensor<3x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
