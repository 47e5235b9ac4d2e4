// Splits that need no communication: the partitioned module holds no
// collective, so nothing lowers to MPI calls, and its grid, which nothing
// refers to any more, must still go for mlir-translate to read the module.
// Built and run as sharded-gathers.mlir is; each process compares its
// result with its slice of the unsharded op's. 2 processes, then 4.
//
// RUN: gather-opt %s --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.2.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.2.ll %mpi_link -o %t.2.so
// RUN: gather-opt %S/Inputs/sharded-no-communication-driver.mlir --gather-to-llvm -o %t.driver.mlir
// RUN: %mpirun -np 2 %mlir_run_mpi,%t.2.so -e main %t.driver.mlir | FileCheck %s
//
// RUN: sed 's/shape = 2/shape = 4/' %s | gather-opt --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.4.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.4.ll %mpi_link -o %t.4.so
// RUN: %mpirun -np 4 %mlir_run_mpi,%t.4.so -e main %t.driver.mlir | FileCheck %s

// Rank 0 prints the number of elements that differ from the unsharded op's
// on any process.
// CHECK-LABEL: columns
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// CHECK-LABEL: elements_off_axis
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// CHECK-LABEL: bag_dim
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// CHECK-LABEL: ids_split
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]

shard.grid @grid(shape = 2)

func.func @columns(%table: tensor<8x4xf32>, %ids: tensor<5xi64>) -> tensor<5x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x4xf32>, tensor<5xi64>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

func.func @elements_off_axis(%data: tensor<8x4xf32>, %ids: tensor<8x3xi64>) -> tensor<8x3xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %d = shard.shard %data to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.gather_elements %d[%ids] {axis = 1 : i64} : (tensor<8x4xf32>, tensor<8x3xi64>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

func.func @bag_dim(%table: tensor<8x4xf32>, %ids: tensor<6xi64>, %offsets: tensor<2xi64>) -> tensor<2x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {reduction = #gather<reduction sum>} : (tensor<8x4xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

func.func @ids_split(%table: tensor<8x4xf32>, %ids: tensor<8xi64>) -> tensor<8x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %s annotate_for_users : tensor<8xi64>
  %r = gather.gather %table[%i] {axis = 0 : i64, mode = #gather<mode clamp>} : (tensor<8x4xf32>, tensor<8xi64>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
