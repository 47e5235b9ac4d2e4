// Embedding bags tiled by upstream's transforms (TilingInterface: bags and
// dim), then lowered by gather-to-llvm and run under stock mlir-runner:
// every schedule gives the values of the untiled module (worked by hand
// from docs/Semantics.md, as in embedding-bag.mlir and
// embedding-bag-rowwise.mlir), for offsets with and without
// include_last_offset, fixed-length bags, per-sample weights, padding, the
// modes, and a row-wise quantized table.
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_for --gather-to-llvm > %t.for.mlir
// RUN: %run_main %t.for.mlir | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_dim_forall --gather-to-llvm > %t.forall.mlir
// RUN: %run_main %t.forall.mlir | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_dim_forall --gather-to-llvm=parallel=true > %t.omp.mlir
// RUN: %run_main_omp %t.omp.mlir | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=each_for --gather-to-llvm > %t.each.mlir
// RUN: %run_main %t.each.mlir | FileCheck %s
/// The tiles are gather.embedding_bag on slices: ids from the tile's first
/// bag on, offsets rebased by a linalg.generic and ended by the next tile's
/// first (include_last_offset); fixed-length bags, rows of ids.
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_for | FileCheck %s --check-prefix=TILED
/// A check failure in a tile names the id; offsets that break a rule are
/// still an error (named by the tile's offsets), also where they decrease
/// from one tile to the next.
// RUN: not %mlir_run -e bad_id %t.forall.mlir 2>&1 | FileCheck %s --check-prefix=ID
// RUN: not %mlir_run -e bad_id %t.each.mlir 2>&1 | FileCheck %s --check-prefix=ID
// RUN: not %mlir_run -e bad_offsets %t.for.mlir 2>&1 | FileCheck %s --check-prefix=OFFSETS
// RUN: not %mlir_run -e bad_offsets %t.each.mlir 2>&1 | FileCheck %s --check-prefix=OFFSETS
// RUN: not %mlir_run -e bad_first_offset %t.for.mlir 2>&1 | FileCheck %s --check-prefix=FIRST

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @table() -> tensor<?x3xf32> {
  %t = arith.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0], [100.0, 200.0, 300.0], [-1.0, -2.0, -3.0], [5.0, 5.0, 5.0]]> : tensor<5x3xf32>
  %d = tensor.cast %t : tensor<5x3xf32> to tensor<?x3xf32>
  return %d : tensor<?x3xf32>
}

func.func @sum_weighted(%t: tensor<?x3xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %w: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @mean_padding(%t: tensor<?x3xf32>, %i: tensor<?xi64>, %o: tensor<?xi32>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {padding_idx = -4 : i64} : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @sum_clamp_last(%t: tensor<?x3xf32>, %i: tensor<?xindex>, %o: tensor<?xindex>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, include_last_offset, mode = #gather<mode clamp>} : (tensor<?x3xf32>, tensor<?xindex>, tensor<?xindex>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @max_fill_fixed(%t: tensor<?x3xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] {reduction = #gather<reduction max>, mode = #gather<mode fill>} : (tensor<?x3xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @sum8(%t: tensor<?x?xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, rowwise_bits = 8 : i64} : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %t = call @table() : () -> tensor<?x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 4, -1, 3]> : tensor<6xi64>
  %i = tensor.cast %ic : tensor<6xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 3, 3, 5]> : tensor<4xi64>
  %o = tensor.cast %oc : tensor<4xi64> to tensor<?xi64>
  %wc = arith.constant dense<[1.0, 2.0, 0.5, 1.0, 2.0, 3.0]> : tensor<6xf32>
  %w = tensor.cast %wc : tensor<6xf32> to tensor<?xf32>

  // Bags {0, 1, 2}, {}, {4, -1 = 4}, {3}, each row times its weight.
  // CHECK: {{\[}}[71,   142,   213],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [15,   15,   15],
  // CHECK-NEXT: [-3,   -6,   -9]]
  %r0 = call @sum_weighted(%t, %i, %o, %w) : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x?xf32>
  call @print(%r0) : (tensor<?x?xf32>) -> ()

  // padding_idx -4 is row 1: skipped, not counted.
  // CHECK: {{\[}}[50.5,   101,   151.5],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [5,   5,   5],
  // CHECK-NEXT: [-1,   -2,   -3]]
  %o32c = arith.constant dense<[0, 3, 3, 5]> : tensor<4xi32>
  %o32 = tensor.cast %o32c : tensor<4xi32> to tensor<?xi32>
  %r1 = call @mean_padding(%t, %i, %o32) : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi32>) -> tensor<?x?xf32>
  call @print(%r1) : (tensor<?x?xf32>) -> ()

  // include_last_offset: offsets [0, 2, 3, 3] are three bags, the id after
  // the last offset is in none; clamp: 9 is row 4, -9 is row 0.
  // CHECK: {{\[}}[6,   7,   8],
  // CHECK-NEXT: [10,   20,   30],
  // CHECK-NEXT: [0,   0,   0]]
  %cc = arith.constant dense<[9, -9, 1, 2]> : tensor<4xindex>
  %c = tensor.cast %cc : tensor<4xindex> to tensor<?xindex>
  %coc = arith.constant dense<[0, 2, 3, 3]> : tensor<4xindex>
  %co = tensor.cast %coc : tensor<4xindex> to tensor<?xindex>
  %r2 = call @sum_clamp_last(%t, %c, %co) : (tensor<?x3xf32>, tensor<?xindex>, tensor<?xindex>) -> tensor<?x?xf32>
  call @print(%r2) : (tensor<?x?xf32>) -> ()

  // Fixed-length bags; fill: 7 is a row of zeros that takes part in max.
  // CHECK: {{\[}}[10,   20,   30],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [100,   200,   300]]
  %fc = arith.constant dense<[[0, 1], [3, 7], [2, -4]]> : tensor<3x2xi64>
  %f = tensor.cast %fc : tensor<3x2xi64> to tensor<?x?xi64>
  %r3 = call @max_fill_fixed(%t, %f) : (tensor<?x3xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r3) : (tensor<?x?xf32>) -> ()

  // 8-bit row-wise table (embedding-bag-rowwise.mlir's): bags {0, 1, 2},
  // {}, {2, -1 = 2}.
  // CHECK: {{\[}}[207,   104,   183.5],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [398,   198,   98]]
  %q = arith.constant dense<[[1, 2, 3, 0, 0, 0, 64, 0, 0, -128, 63],
                             [10, 0, -1, 0, 0, 0, 63, 0, 0, 0, 0],
                             [-56, 100, 50, 0, 0, -128, 63, 0, 0, -128, -65]]> : tensor<3x11xi8>
  %qd = tensor.cast %q : tensor<3x11xi8> to tensor<?x?xi8>
  %qic = arith.constant dense<[0, 1, 2, 2, -1]> : tensor<5xi64>
  %qi = tensor.cast %qic : tensor<5xi64> to tensor<?xi64>
  %qoc = arith.constant dense<[0, 3, 3]> : tensor<3xi64>
  %qo = tensor.cast %qoc : tensor<3xi64> to tensor<?xi64>
  %r4 = call @sum8(%qd, %qi, %qo) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r4) : (tensor<?x?xf32>) -> ()
  return
}

// ID: error: gather.embedding_bag: index 9 is out of range [-5, 4] for data dimension 0 of size 5
// ID-NOT: Memref
func.func @bad_id() {
  %t = call @table() : () -> tensor<?x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 4, 9, 3]> : tensor<6xi64>
  %i = tensor.cast %ic : tensor<6xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 3, 3, 5]> : tensor<4xi32>
  %o = tensor.cast %oc : tensor<4xi32> to tensor<?xi32>
  %r = call @mean_padding(%t, %i, %o) : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// Offsets that decrease between two tiles.
// OFFSETS: error: gather.embedding_bag: offsets[
// OFFSETS-NOT: Memref
func.func @bad_offsets() {
  %t = call @table() : () -> tensor<?x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 4, 1, 3]> : tensor<6xi64>
  %i = tensor.cast %ic : tensor<6xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 4, 2, 5]> : tensor<4xi32>
  %o = tensor.cast %oc : tensor<4xi32> to tensor<?xi32>
  %r = call @mean_padding(%t, %i, %o) : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// FIRST: error: gather.embedding_bag: offsets[0] is 1, but the first bag must start at 0
// FIRST-NOT: Memref
func.func @bad_first_offset() {
  %t = call @table() : () -> tensor<?x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 4, 1, 3]> : tensor<6xi64>
  %i = tensor.cast %ic : tensor<6xi64> to tensor<?xi64>
  %oc = arith.constant dense<[1, 4, 4, 5]> : tensor<4xi32>
  %o = tensor.cast %oc : tensor<4xi32> to tensor<?xi32>
  %r = call @mean_padding(%t, %i, %o) : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// TILED-LABEL: func.func @sum_weighted
// TILED: scf.for
// TILED:   tensor.extract_slice %{{.*}} : tensor<?xi64> to tensor<?xi64>
// TILED:   linalg.generic
// TILED:     arith.subi
// TILED:   tensor.insert %{{.*}} into
// TILED:   gather.embedding_bag {{.*}} per_sample_weights({{.*}}) {include_last_offset, reduction = #gather<reduction sum>}
// TILED:   tensor.insert_slice
// TILED-LABEL: func.func @max_fill_fixed
// TILED:   tensor.extract_slice %{{.*}} : tensor<?x?xi64> to tensor<?x?xi64>
// TILED:   gather.embedding_bag
// TILED-NOT: offsets
// TILED-SAME: mode = #gather<mode fill>
