// RUN: gather-opt %s --gather-to-llvm="prefetch-distance=4" | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="prefetch-distance=4 parallel=true vectorize=false" | FileCheck %s

/// Elements of i0 take no bytes: the prefetch plan's row test divided by
/// their size (a crash the fuzzer found); they count as a byte there.

// CHECK-LABEL: llvm.func @i0_rows
func.func @i0_rows(%d: tensor<4x2xi0>, %i: tensor<3xi32>) -> tensor<3x2xi0> {
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<4x2xi0>, tensor<3xi32>) -> tensor<3x2xi0>
  return %0 : tensor<3x2xi0>
}

// CHECK-LABEL: llvm.func @i0_huge
func.func @i0_huge(%d: tensor<4x2xi0>) -> tensor<4611686018427387904x4x2xi0> {
  %i = arith.constant dense<9> : tensor<4611686018427387904x4xi32>
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<4x2xi0>, tensor<4611686018427387904x4xi32>) -> tensor<4611686018427387904x4x2xi0>
  return %0 : tensor<4611686018427387904x4x2xi0>
}
