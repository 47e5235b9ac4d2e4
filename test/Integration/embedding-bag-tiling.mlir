// Embedding bags tiled by upstream's transforms (TilingInterface: bags and
// dim), then lowered by gather-to-llvm and run under stock mlir-runner:
// every schedule gives the values of the untiled module (worked by hand
// from docs/Semantics.md, as in embedding-bag.mlir and
// embedding-bag-rowwise.mlir), for offsets with and without
// include_last_offset, fixed-length bags, per-sample weights, padding, the
// modes, i8 offsets, and row-wise and block-quantized tables.
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_for --gather-to-llvm > %t.for.mlir
// RUN: %run_main %t.for.mlir | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_dim_forall --gather-to-llvm > %t.forall.mlir
// RUN: %run_main %t.forall.mlir | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_dim_forall --gather-to-llvm=parallel=true > %t.omp.mlir
// RUN: %run_main_omp %t.omp.mlir | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=each_for --gather-to-llvm > %t.each.mlir
// RUN: %run_main %t.each.mlir | FileCheck %s
/// num_threads tiles: four of one bag over three bags, the last empty.
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_num_threads --gather-to-llvm > %t.threads.mlir
// RUN: %run_main %t.threads.mlir | FileCheck %s
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
/// per_sample_weights longer than the fixed-length bags' ids: an error
/// tiled too (the last tile takes the rest of the weights).
// RUN: not %mlir_run -e bad_weights %t.for.mlir 2>&1 | FileCheck %s --check-prefix=WEIGHTS
// RUN: not %mlir_run -e bad_weights %t.each.mlir 2>&1 | FileCheck %s --check-prefix=WEIGHTS

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

func.func @sum_blocks(%t: tensor<?x?xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) scales(%s) {reduction = #gather<reduction sum>, block_bits = 8 : i64, block_size = 16 : i64} : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @sum_i8_offsets(%t: tensor<?x3xf32>, %i: tensor<?xi64>, %o: tensor<?xi8>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>} : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi8>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @sum_fixed_weighted(%t: tensor<?x3xf32>, %i: tensor<?x?xi64>, %w: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<?x3xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
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

  // A block-quantized table (embedding-bag-blocks.mlir's 8-bit one: blocks
  // of 16, value (q - 128) * scale; row 0 q = k, scale 0.5; row 1 q = 200,
  // scale 2; row 2 q = 255 - k, scale 0.25): bags {0, 1}, {2, -1 = 2}, {}.
  // CHECK: {{\[}}[80,   80.5,   81,   81.5,   82,   82.5,   83,   83.5,   84,   84.5,   85,   85.5,   86,   86.5,   87,   87.5],
  // CHECK-NEXT: [63.5,   63,   62.5,   62,   61.5,   61,   60.5,   60,   59.5,   59,   58.5,   58,   57.5,   57,   56.5,   56],
  // CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0]]
  %bt = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
                              [-56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56],
                              [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16]]> : tensor<3x16xi8>
  %btd = tensor.cast %bt : tensor<3x16xi8> to tensor<?x?xi8>
  %bs = arith.constant dense<[[0.5], [2.0], [0.25]]> : tensor<3x1xf32>
  %bsd = tensor.cast %bs : tensor<3x1xf32> to tensor<?x?xf32>
  %bic = arith.constant dense<[0, 1, 2, -1]> : tensor<4xi64>
  %bi = tensor.cast %bic : tensor<4xi64> to tensor<?xi64>
  %boc = arith.constant dense<[0, 2, 4]> : tensor<3xi64>
  %bo = tensor.cast %boc : tensor<3xi64> to tensor<?xi64>
  %r5 = call @sum_blocks(%btd, %bi, %bo, %bsd) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print(%r5) : (tensor<?x?xf32>) -> ()

  // i8 offsets over 130 ids of row 0: the last bag ends at 130, past what
  // an i8 offset holds. Bags of 10 and 120 ids.
  // CHECK: {{\[}}[10,   20,   30],
  // CHECK-NEXT: [120,   240,   360]]
  %zc = arith.constant dense<0> : tensor<130xi64>
  %z = tensor.cast %zc : tensor<130xi64> to tensor<?xi64>
  %o8c = arith.constant dense<[0, 10]> : tensor<2xi8>
  %o8 = tensor.cast %o8c : tensor<2xi8> to tensor<?xi8>
  %r6 = call @sum_i8_offsets(%t, %z, %o8) : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi8>) -> tensor<?x?xf32>
  call @print(%r6) : (tensor<?x?xf32>) -> ()
  return
}

// WEIGHTS: error: gather.embedding_bag: per_sample_weights dimension 0 has size
// WEIGHTS-NOT: Memref
func.func @bad_weights() {
  %t = call @table() : () -> tensor<?x3xf32>
  %ic = arith.constant dense<[[0], [1], [2]]> : tensor<3x1xi64>
  %i = tensor.cast %ic : tensor<3x1xi64> to tensor<?x?xi64>
  %wc = arith.constant dense<[[1.0], [1.0], [1.0], [1.0]]> : tensor<4x1xf32>
  %w = tensor.cast %wc : tensor<4x1xf32> to tensor<?x?xf32>
  %r = call @sum_fixed_weighted(%t, %i, %w) : (tensor<?x3xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
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
