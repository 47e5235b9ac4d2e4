// Scatters tiled and fused by upstream's transforms (TilingInterface), then
// lowered by gather-to-llvm and run under stock mlir-runner: every schedule
// gives the values of the untiled module, worked by hand below. Float `add`
// with duplicate indices is the sequential loop's, bit for bit, when the
// tiles along index positions run in an scf.for.
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/scatter-tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_for --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/scatter-tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_forall --gather-to-llvm > %t.forall.mlir
// RUN: %run_main %t.forall.mlir | FileCheck %s
/// scf.forall on OpenMP threads.
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/scatter-tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_forall --gather-to-llvm=parallel=true | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/scatter-tiling-schedules.mlir --transform-interpreter=entry-point=fuse_producer --gather-to-llvm | %run_main | FileCheck %s
/// The schedules in stock mlir-opt with GatherPlugin.so.
// RUN: %plugin_mlir_opt %s --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --transform-preload-library=transform-library-paths=%S/Inputs/scatter-tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_for | %plugin_mlir_opt --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --pass-pipeline="builtin.module(gather-to-llvm)" | %run_main | FileCheck %s
/// A check failure in a tile names the bad index.
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/scatter-tiling-schedules.mlir --transform-interpreter=entry-point=tile_using_for --gather-to-llvm > %t.for.mlir
// RUN: not %mlir_run -e check_failure %t.for.mlir 2>&1 | FileCheck %s --check-prefix=CHECKFAIL

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<*xf32>) {
  call @printMemrefF32(%t) : (tensor<*xf32>) -> ()
  return
}

/// A consumer of the scatter's result (doubling it), tiled by columns
/// with the scatter fused into its loop by @fuse_producer.
func.func @fused(%d: tensor<3x4xf32>, %i: tensor<3xi64>, %u: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %s = gather.scatter %d[%i], %u {reduction = #gather<combine add>} : (tensor<3x4xf32>, tensor<3xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @check_failure() {
  %z = arith.constant dense<0.0> : tensor<2x2xf32>
  %i = arith.constant dense<[0, 7]> : tensor<2xi64>
  %u = arith.constant dense<1.0> : tensor<2x2xf32>
  %r = gather.scatter %z[%i], %u {reduction = #gather<combine add>} : (tensor<2x2xf32>, tensor<2xi64>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %c = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}
// CHECKFAIL: gather.scatter: index 7 is out of range [-2, 1]

func.func @main() {
  // index_add of rows: 1e8 + 1 rounds to 1e8 in f32, so the sequential
  // loop's row 0 is (1e8 + 1) - 1e8 = 0; any other order gives 1 or 2.
  // CHECK: {{\[}}[0,   0,   0,   0],
  // CHECK-NEXT: [5,   6,   7,   8]]
  %z = arith.constant dense<0.0> : tensor<2x4xf32>
  %i = arith.constant dense<[0, 0, 1, 0]> : tensor<4xi64>
  %u = arith.constant dense<[[1.0e8, 1.0e8, 1.0e8, 1.0e8], [1.0, 1.0, 1.0, 1.0], [5.0, 6.0, 7.0, 8.0], [-1.0e8, -1.0e8, -1.0e8, -1.0e8]]> : tensor<4x4xf32>
  %a = gather.scatter %z[%i], %u {reduction = #gather<combine add>} : (tensor<2x4xf32>, tensor<4xi64>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %a0 = tensor.cast %a : tensor<2x4xf32> to tensor<*xf32>
  call @print(%a0) : (tensor<*xf32>) -> ()

  // scatter_elements along axis 0 (torch's scatter_reduce amax), clamp:
  // index 5 goes to row 2; dest is wider than the updates.
  // CHECK: {{\[}}[9,   1,   1,   1],
  // CHECK-NEXT: [1,   4,   1,   1],
  // CHECK-NEXT: [3,   1,   6,   1]]
  %o = arith.constant dense<1.0> : tensor<3x4xf32>
  %ei = arith.constant dense<[[0, 1, 5], [2, 1, 2]]> : tensor<2x3xi64>
  %eu = arith.constant dense<[[9.0, 2.0, 6.0], [3.0, 4.0, 0.0]]> : tensor<2x3xf32>
  %b = gather.scatter_elements %o[%ei], %eu {axis = 0 : i64, mode = #gather<mode clamp>, reduction = #gather<combine max>} : (tensor<3x4xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x4xf32>
  %b0 = tensor.cast %b : tensor<3x4xf32> to tensor<*xf32>
  call @print(%b0) : (tensor<*xf32>) -> ()

  // scatter_nd of rows (none: the last update wins), fill: the tuple 3 is
  // dropped.
  // CHECK: {{\[}}[5,   6],
  // CHECK-NEXT: [0,   0],
  // CHECK-NEXT: [0,   0]]
  %zn = arith.constant dense<0.0> : tensor<3x2xf32>
  %ni = arith.constant dense<[[0], [3], [0]]> : tensor<3x1xi64>
  %nu = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %c = gather.scatter_nd %zn[%ni], %nu {mode = #gather<mode fill>} : (tensor<3x2xf32>, tensor<3x1xi64>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %c0 = tensor.cast %c : tensor<3x2xf32> to tensor<*xf32>
  call @print(%c0) : (tensor<*xf32>) -> ()

  // The fused scatter: rows 2 and 0 get updates, then everything doubles.
  // CHECK: {{\[}}[4,   4,   4,   4],
  // CHECK-NEXT: [2,   2,   2,   2],
  // CHECK-NEXT: [6,   8,   10,   12]]
  %fd = arith.constant dense<1.0> : tensor<3x4xf32>
  %fi = arith.constant dense<[2, 0, 2]> : tensor<3xi64>
  %fu = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<3x4xf32>
  %f = call @fused(%fd, %fi, %fu) : (tensor<3x4xf32>, tensor<3xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %f0 = tensor.cast %f : tensor<3x4xf32> to tensor<*xf32>
  call @print(%f0) : (tensor<*xf32>) -> ()
  return
}
