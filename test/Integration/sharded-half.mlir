// Tables of f16 and bf16 split across processes, for which MPI has no
// datatype: a gather's partial results are all-reduced as 16-bit integers
// (one process holds each element, so the bits are exact, -0.0 included),
// a bag's are computed and all-reduced in f32 and rounded once. Built and
// run as sharded-gathers.mlir is; the driver compares every result's bits
// with the unsharded op's. 2 processes, then 4.
//
// RUN: gather-opt %s --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.2.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.2.ll %mpi_link -o %t.2.so
// RUN: gather-opt %S/Inputs/sharded-half-driver.mlir --gather-to-llvm -o %t.driver.mlir
// RUN: %mpirun -np 2 %mlir_run_mpi,%t.2.so -e main %t.driver.mlir | FileCheck %s
//
// RUN: sed 's/shape = 2/shape = 4/' %s | gather-opt --gather-shard-partition --gather-to-llvm | mlir-translate --mlir-to-llvmir -o %t.4.ll
// RUN: %clang -Wno-override-module -shared -fPIC -O1 %t.4.ll %mpi_link -o %t.4.so
// RUN: %mpirun -np 4 %mlir_run_mpi,%t.4.so -e main %t.driver.mlir | FileCheck %s

// Rank 0 prints each result (as f32) and the number of elements whose bits
// differ from the unsharded op's on any process.
// CHECK-LABEL: rows_f16
// CHECK:      {{\[}}[2048, 0.5],
// CHECK-NEXT: [30, 31],
// CHECK-NEXT: [1, 0.125],
// CHECK-NEXT: [-0, 71],
// CHECK-NEXT: [-0, 71]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// CHECK-LABEL: rows_bf16
// CHECK:      {{\[}}[2048, 0.5],
// CHECK-NEXT: [30, 31],
// CHECK-NEXT: [1, 0.125],
// CHECK-NEXT: [-0, 71],
// CHECK-NEXT: [-0, 71]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// Bags [0, 1, 5]: 2048 + 1 + 1 is 2050 when accumulated in f32 (2048 in
// f16); [3 (padding)]; [2, 4, 6].
// CHECK-LABEL: bag_sum_f16
// CHECK:      {{\[}}[2050, 0.875],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [101, 105]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// The same bags, weighted by 1, 1, 1 / 1 / 2, 1, 0.5.
// CHECK-LABEL: bag_weighted_bf16
// CHECK:      {{\[}}[2048, 0.875],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [72, 77.5]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// Bags [3, 4]; [1, 9 (fill: a zero row, counted)].
// CHECK-LABEL: bag_mean_f16
// CHECK:      {{\[}}[35, 36],
// CHECK-NEXT: [0.5, 0.125]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]
// The negated table: bags [3, 4]; [6, 1].
// CHECK-LABEL: bag_max_f16
// CHECK:      {{\[}}[-30, -31],
// CHECK-NEXT: [-1, -0.25]]
// CHECK-NEXT: mismatches
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [0]

shard.grid @grid(shape = 2)

func.func @rows_f16(%table: tensor<8x2xf16>, %ids: tensor<5xi64>) -> tensor<5x2xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf16>
  %r = gather.gather %t[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x2xf16>, tensor<5xi64>) -> tensor<5x2xf16>
  return %r : tensor<5x2xf16>
}

func.func @rows_bf16(%table: tensor<8x2xbf16>, %ids: tensor<5xi64>) -> tensor<5x2xbf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xbf16>
  %r = gather.gather %t[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x2xbf16>, tensor<5xi64>) -> tensor<5x2xbf16>
  return %r : tensor<5x2xbf16>
}

func.func @bag_sum_f16(%table: tensor<8x2xf16>, %ids: tensor<7xi64>, %offsets: tensor<3xi64>) -> tensor<3x2xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf16>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {reduction = #gather<reduction sum>, padding_idx = 3 : i64} : (tensor<8x2xf16>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf16>
  return %r : tensor<3x2xf16>
}

func.func @bag_weighted_bf16(%table: tensor<8x2xbf16>, %ids: tensor<7xi64>, %offsets: tensor<3xi64>, %weights: tensor<7xbf16>) -> tensor<3x2xbf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xbf16>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) per_sample_weights(%weights) {reduction = #gather<reduction sum>, padding_idx = 3 : i64} : (tensor<8x2xbf16>, tensor<7xi64>, tensor<3xi64>, tensor<7xbf16>) -> tensor<3x2xbf16>
  return %r : tensor<3x2xbf16>
}

func.func @bag_mean_f16(%table: tensor<8x2xf16>, %ids: tensor<2x2xi64>) -> tensor<2x2xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf16>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction mean>, mode = #gather<mode fill>} : (tensor<8x2xf16>, tensor<2x2xi64>) -> tensor<2x2xf16>
  return %r : tensor<2x2xf16>
}

func.func @bag_max_f16(%table: tensor<8x2xf16>, %ids: tensor<2x2xi64>) -> tensor<2x2xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf16>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction max>} : (tensor<8x2xf16>, tensor<2x2xi64>) -> tensor<2x2xf16>
  return %r : tensor<2x2xf16>
}
