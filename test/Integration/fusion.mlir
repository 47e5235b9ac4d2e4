// Elementwise consumers computed in the gathers' loop (gather-fuse-elementwise,
// on by default in gather-to-llvm) give the values of the unfused module in
// every mode, serially and on threads.
// RUN: gather-opt %s --gather-to-llvm > %t.fused.mlir
// RUN: %run_main %t.fused.mlir | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm=fuse-elementwise=false > %t.unfused.mlir
// RUN: %run_main %t.unfused.mlir | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" > %t.threads.mlir
// RUN: %run_main_omp %t.threads.mlir | FileCheck %s
/// Unfused elementwise ops on threads too (gather-parallelize-linalg).
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0 fuse-elementwise=false" > %t.unfused-threads.mlir
// RUN: FileCheck %s --check-prefix=THREADS < %t.unfused-threads.mlir
// RUN: %run_main_omp %t.unfused-threads.mlir | FileCheck %s
/// A bad index in check mode is reported, fused or not, on threads too (the
/// first in row-major order: 9, not 12), and nothing printed.
// RUN: not %mlir_run -e check_failure %t.fused.mlir 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not %mlir_run -e check_failure %t.unfused.mlir 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not %mlir_run_omp -e check_failure %t.threads.mlir 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not %mlir_run_omp -e check_failure %t.unfused-threads.mlir 2>&1 | FileCheck %s --check-prefix=FAIL
/// In @dequant: the row gather's loop and the elementwise op's (the
/// one-element gathers stay serial).
// THREADS-LABEL: llvm.func @dequant(
// THREADS-COUNT-2: omp.parallel
// THREADS-NOT: omp.parallel
// THREADS: llvm.func

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%r: tensor<4x3xf32>) {
  %u = tensor.cast %r : tensor<4x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

/// A row-wise quantized table: (float(q[ids]) - zp[ids]) * scale[ids].
func.func @dequant(%q: tensor<5x3xi8>, %zp: tensor<5xf32>, %scale: tensor<5xf32>, %ids: tensor<4xi64>) -> tensor<4x3xf32> {
  %rows = gather.gather %q[%ids] : (tensor<5x3xi8>, tensor<4xi64>) -> tensor<4x3xi8>
  %z = gather.gather %zp[%ids] : (tensor<5xf32>, tensor<4xi64>) -> tensor<4xf32>
  %s = gather.gather %scale[%ids] : (tensor<5xf32>, tensor<4xi64>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%rows, %z, %s : tensor<4x3xi8>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%x: i8, %zv: f32, %sv: f32, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    %d = arith.subf %f, %zv : f32
    %y = arith.mulf %d, %sv : f32
    linalg.yield %y : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

/// Modes on arith ops on tensors: fill and wrap rows, added.
func.func @arith_modes(%t: tensor<5x3xf32>, %ids: tensor<4xi32>) -> tensor<4x3xf32> {
  %a = gather.gather %t[%ids] {mode = #gather<mode fill>} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  %b = gather.gather %t[%ids] {mode = #gather<mode wrap>} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  %c = gather.gather %t[%ids] {mode = #gather<mode clamp>} : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  %ab = arith.addf %a, %b : tensor<4x3xf32>
  %abc = arith.addf %ab, %c : tensor<4x3xf32>
  return %abc : tensor<4x3xf32>
}

func.func @tables() -> (tensor<5x3xi8>, tensor<5xf32>, tensor<5xf32>, tensor<5x3xf32>) {
  %q = arith.constant dense<[[1, 2, 3], [-4, 5, 6], [7, -8, 9], [10, 11, -12], [100, -100, 0]]> : tensor<5x3xi8>
  %zp = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0]> : tensor<5xf32>
  %scale = arith.constant dense<[1.0, 0.5, 2.0, 10.0, 0.25]> : tensor<5xf32>
  %t = arith.constant dense<[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0], [40.0, 41.0, 42.0]]> : tensor<5x3xf32>
  return %q, %zp, %scale, %t : tensor<5x3xi8>, tensor<5xf32>, tensor<5xf32>, tensor<5x3xf32>
}

// Rows 3, 0, 4, 1 (-1 is 4): (q - zp) * scale.
// CHECK: [70,   80,   -150],
// CHECK-NEXT: [1,   2,   3],
// CHECK-NEXT: [24,   -26,   -1],
// CHECK-NEXT: [-2.5,   2,   2.5]]
// ids [1, 7, -1, -6]: fill gives rows 1, 0s, 4, 0s; wrap rows 1, 2, 4, 4;
// clamp rows 1, 4, 4, 0.
// CHECK: [30,   33,   36],
// CHECK-NEXT: [60,   62,   64],
// CHECK-NEXT: [120,   123,   126],
// CHECK-NEXT: [40,   42,   44]]
func.func @main() {
  %q, %zp, %scale, %t = call @tables() : () -> (tensor<5x3xi8>, tensor<5xf32>, tensor<5xf32>, tensor<5x3xf32>)
  %ids = arith.constant dense<[3, 0, -1, 1]> : tensor<4xi64>
  %r = call @dequant(%q, %zp, %scale, %ids) : (tensor<5x3xi8>, tensor<5xf32>, tensor<5xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  call @print(%r) : (tensor<4x3xf32>) -> ()
  %ids2 = arith.constant dense<[1, 7, -1, -6]> : tensor<4xi32>
  %m = call @arith_modes(%t, %ids2) : (tensor<5x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  call @print(%m) : (tensor<4x3xf32>) -> ()
  return
}

// FAIL: error: gather.gather: index 9 is out of range [-5, 4] for data dimension 0 of size 5
// FAIL-NOT: Memref
func.func @check_failure() {
  %q, %zp, %scale, %t = call @tables() : () -> (tensor<5x3xi8>, tensor<5xf32>, tensor<5xf32>, tensor<5x3xf32>)
  %ids = arith.constant dense<[3, 9, 1, 12]> : tensor<4xi64>
  %r = call @dequant(%q, %zp, %scale, %ids) : (tensor<5x3xi8>, tensor<5xf32>, tensor<5xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  call @print(%r) : (tensor<4x3xf32>) -> ()
  return
}
