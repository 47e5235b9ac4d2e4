// Gathers tiled and fused by upstream's transforms (TilingInterface), then
// lowered by gather-to-llvm and run under stock mlir-runner: every schedule
// gives the values of the untiled module, in every mode.
// RUN: gather-opt %s --gather-to-llvm > %t.untiled.mlir
// RUN: %run_main %t.untiled.mlir | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_for --gather-to-llvm > %t.for.mlir
// RUN: %run_main %t.for.mlir | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_forall --gather-to-llvm > %t.forall.mlir
// RUN: %run_main %t.forall.mlir | FileCheck %s
/// scf.forall on OpenMP threads.
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_forall --gather-to-llvm=parallel=true > %t.omp.mlir
// RUN: %run_main_omp %t.omp.mlir | FileCheck %s
/// A gather fused into its consumer's loop; two gathers fused into theirs.
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/tiling-schedules.mlir --transform-interpreter=entry-point=fuse_producers --gather-to-llvm > %t.fused.mlir
// RUN: %run_main %t.fused.mlir | FileCheck %s
/// The same schedules in stock mlir-opt with GatherPlugin.so.
// RUN: %plugin_mlir_opt %s --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --transform-preload-library=transform-library-paths=%S/Inputs/tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_forall | %plugin_mlir_opt --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --pass-pipeline="builtin.module(gather-to-llvm)" | %run_main | FileCheck %s
// RUN: %plugin_mlir_opt %s --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --transform-preload-library=transform-library-paths=%S/Inputs/tiling-schedules.mlir --transform-interpreter=entry-point=fuse_producers | %plugin_mlir_opt --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --pass-pipeline="builtin.module(gather-to-llvm)" | %run_main | FileCheck %s
/// A check failure in a tile names the bad index.
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_for --gather-to-llvm > %t.check.mlir
// RUN: not %mlir_run -e check_failure %t.check.mlir 2>&1 | FileCheck %s --check-prefix=CHECKFAIL
/// Indices longer than data along a batch dim: an error untiled, and tiled
/// too (the last tile takes the rest of the indices; its message names the
/// tile's sizes).
// RUN: not %mlir_run -e batch_mismatch %t.untiled.mlir 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not %mlir_run -e batch_mismatch %t.check.mlir 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not %mlir_run -e batch_mismatch %t.forall.mlir 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not %mlir_run -e nd_batch_mismatch %t.check.mlir 2>&1 | FileCheck %s --check-prefix=ND-BATCH
/// Every tile fails at once on OpenMP threads: one message, one exit (two
/// threads in exit() deadlocked, and their messages interleaved).
// RUN: timeout 60 not %mlir_run_omp -e many_failures %t.omp.mlir 2>&1 | FileCheck %s --check-prefix=ONCE

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print3(%r: tensor<?x?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

/// data[a, b, c] = 100a + 10b + c.
func.func @iota3(%a: index, %b: index, %c: index) -> tensor<?x?x?xf32> {
  %t = tensor.generate %a, %b, %c {
  ^bb0(%i: index, %j: index, %k: index):
    %c100 = arith.constant 100 : index
    %c10 = arith.constant 10 : index
    %x = arith.muli %i, %c100 : index
    %y = arith.muli %j, %c10 : index
    %s = arith.addi %x, %y : index
    %v = arith.addi %s, %k : index
    %w = arith.index_cast %v : index to i64
    %f = arith.sitofp %w : i64 to f32
    tensor.yield %f : f32
  } : tensor<?x?x?xf32>
  return %t : tensor<?x?x?xf32>
}

/// data[a, b] = 10a + b.
func.func @iota2(%a: index, %b: index) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %t = call @iota3(%c1, %a, %b) : (index, index, index) -> tensor<?x?x?xf32>
  %s = tensor.extract_slice %t[0, 0, 0] [1, %a, %b] [1, 1, 1] : tensor<?x?x?xf32> to tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// CHECK: [0,    1,    2,    3,    4,    5,    6],
// CHECK-NEXT: [40,    41,    42,    43,    44,    45,    46],
// CHECK-NEXT: [40,    41,    42,    43,    44,    45,    46]],
// CHECK-NEXT: [120,    121,    122,    123,    124,    125,    126],
// CHECK-NEXT: [120,    121,    122,    123,    124,    125,    126],
// CHECK-NEXT: [130,    131,    132,    133,    134,    135,    136]]]
func.func @batch_wrap() {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %d = call @iota3(%c2, %c5, %c7) : (index, index, index) -> tensor<?x?x?xf32>
  %ds = tensor.cast %d : tensor<?x?x?xf32> to tensor<2x5x7xf32>
  %i = arith.constant dense<[[0, 4, -1], [7, 2, 3]]> : tensor<2x3xi32>
  %r = gather.gather %ds[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x5x7xf32>, tensor<2x3xi32>) -> tensor<2x3x7xf32>
  %u = tensor.cast %r : tensor<2x3x7xf32> to tensor<?x?x?xf32>
  call @print3(%u) : (tensor<?x?x?xf32>) -> ()
  return
}

// CHECK: [3,   3],
// CHECK-NEXT: [10,   12],
// CHECK-NEXT: [20,   21]]
/// Dynamic shapes: data 3x4, indices 3x2 along the last axis.
func.func @elements_clamp() {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %d = call @iota2(%c3, %c4) : (index, index) -> tensor<?x?xf32>
  %k = arith.constant dense<[[5, -1], [0, 2], [-9, 1]]> : tensor<3x2xi64>
  %i = tensor.cast %k : tensor<3x2xi64> to tensor<?x?xi64>
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// CHECK: [120,   121],
// CHECK-NEXT: [0,   0],
// CHECK-NEXT: [230,   231]]
func.func @nd_fill() {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  %d = call @iota3(%c3, %c4, %c2) : (index, index, index) -> tensor<?x?x?xf32>
  %ds = tensor.cast %d : tensor<?x?x?xf32> to tensor<3x4x2xf32>
  %i = arith.constant dense<[[1, 2], [5, 0], [-1, -1]]> : tensor<3x2xi32>
  %r = gather.gather_nd %ds[%i] {mode = #gather<mode fill>} : (tensor<3x4x2xf32>, tensor<3x2xi32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<?x?xf32>
  call @print(%u) : (tensor<?x?xf32>) -> ()
  return
}

// CHECK: [60,   62,   64],
// CHECK-NEXT: [20,   22,   24],
// CHECK-NEXT: [60,   62,   64],
// CHECK-NEXT: [0,   2,   4]]
/// A gather and its elementwise consumer (fuse_producers fuses the gather
/// into the consumer's tiles).
func.func @fused(%t: tensor<4x3xf32>, %ids: tensor<4xi64>) -> tensor<4x3xf32> {
  %g = gather.gather %t[%ids] : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @fused_gather() {
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %d = call @iota2(%c4, %c3) : (index, index) -> tensor<?x?xf32>
  %ds = tensor.cast %d : tensor<?x?xf32> to tensor<4x3xf32>
  %ids = arith.constant dense<[3, 1, 3, 0]> : tensor<4xi64>
  %r = call @fused(%ds, %ids) : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  %u = tensor.cast %r : tensor<4x3xf32> to tensor<?x?xf32>
  call @print(%u) : (tensor<?x?xf32>) -> ()
  return
}

// CHECK: [330,   341,   352],
// CHECK-NEXT: [110,   121,   132],
// CHECK-NEXT: [330,   341,   352],
// CHECK-NEXT: [0,   11,   22]]
/// Two sibling gathers with the same ids feeding one consumer (fuse_producers
/// fuses both): t1[ids] + t2[ids], t1 = 10r + c, t2 = 100r + 10c.
func.func @siblings(%t1: tensor<4x3xf32>, %t2: tensor<4x3xf32>, %ids: tensor<4xi32>) -> tensor<4x3xf32> {
  %a = gather.gather %t1[%ids] : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  %b = gather.gather %t2[%ids] {mode = #gather<mode clamp>} : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x3xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @sibling_gathers() {
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %d1 = call @iota2(%c4, %c3) : (index, index) -> tensor<?x?xf32>
  %t1 = tensor.cast %d1 : tensor<?x?xf32> to tensor<4x3xf32>
  %d3 = call @iota3(%c4, %c3, %c1) : (index, index, index) -> tensor<?x?x?xf32>
  %d2 = tensor.extract_slice %d3[0, 0, 0] [4, 3, 1] [1, 1, 1] : tensor<?x?x?xf32> to tensor<4x3xf32>
  %ids = arith.constant dense<[3, 1, -1, 0]> : tensor<4xi32>
  %r = call @siblings(%t1, %d2, %ids) : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  %u = tensor.cast %r : tensor<4x3xf32> to tensor<?x?xf32>
  call @print(%u) : (tensor<?x?xf32>) -> ()
  return
}

// CHECKFAIL: error: gather.gather_elements: index 9 is out of range [-4, 3] for data dimension 1 of size 4
// CHECKFAIL-NOT: Memref
func.func @check_failure() {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %d = call @iota2(%c3, %c4) : (index, index) -> tensor<?x?xf32>
  %k = arith.constant dense<[[1, 2], [0, 2], [3, 9]]> : tensor<3x2xi64>
  %i = tensor.cast %k : tensor<3x2xi64> to tensor<?x?xi64>
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// BATCH: error: gather.gather: batch dimension 0 has size {{[12]}} in data but {{[23]}} in indices
// BATCH-NOT: Memref
func.func @batch_mismatch() {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %d = call @iota2(%c2, %c5) : (index, index) -> tensor<?x?xf32>
  %k = arith.constant dense<[[0, 1], [2, 3], [4, 0]]> : tensor<3x2xi64>
  %i = tensor.cast %k : tensor<3x2xi64> to tensor<?x?xi64>
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// ND-BATCH: error: gather.gather_nd: batch dimension 0 has size 1 in data but 2 in indices
// ND-BATCH-NOT: Memref
func.func @nd_batch_mismatch() {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %d = call @iota2(%c2, %c5) : (index, index) -> tensor<?x?xf32>
  %k = arith.constant dense<[[[0], [1]], [[2], [3]], [[4], [0]]]> : tensor<3x2x1xi64>
  %i = tensor.cast %k : tensor<3x2x1xi64> to tensor<?x2x1xi64>
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<?x?xf32>, tensor<?x2x1xi64>) -> tensor<?x2xf32>
  %u = tensor.cast %r : tensor<?x2xf32> to tensor<?x?xf32>
  call @print(%u) : (tensor<?x?xf32>) -> ()
  return
}

// ONCE: error: gather.gather: index 7 is out of range [-4, 3] for data dimension 0 of size 4
// ONCE-NOT: error
// ONCE-NOT: Memref
func.func @many_failures() {
  %t = arith.constant dense<1.0> : tensor<4x8xf32>
  %i = arith.constant dense<7> : tensor<64xi64>
  %r = gather.gather %t[%i] : (tensor<4x8xf32>, tensor<64xi64>) -> tensor<64x8xf32>
  %u = tensor.cast %r : tensor<64x8xf32> to tensor<?x?xf32>
  call @print(%u) : (tensor<?x?xf32>) -> ()
  return
}

// CHECK: [20,   22,   24],
// CHECK-NEXT: [0,   2,   4]]
/// A gather on a strided slice (rows 0 and 2, columns 0, 2 and 4 of 10r + c).
func.func @strided_slice_gather() {
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %d = call @iota2(%c4, %c6) : (index, index) -> tensor<?x?xf32>
  %s = tensor.extract_slice %d[0, 0] [2, 3] [2, 2] : tensor<?x?xf32> to tensor<2x3xf32>
  %i = arith.constant dense<[1, 0]> : tensor<2xi32>
  %r = gather.gather %s[%i] {mode = #gather<mode clamp>} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %u = tensor.cast %r : tensor<2x3xf32> to tensor<?x?xf32>
  call @print(%u) : (tensor<?x?xf32>) -> ()
  return
}

func.func @main() {
  call @batch_wrap() : () -> ()
  call @elements_clamp() : () -> ()
  call @nd_fill() : () -> ()
  call @fused_gather() : () -> ()
  call @sibling_gathers() : () -> ()
  call @strided_slice_gather() : () -> ()
  return
}
