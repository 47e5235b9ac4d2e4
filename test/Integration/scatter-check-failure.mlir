// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: not %mlir_run -e scatter_oob %t.mlir 2>&1 | FileCheck %s --check-prefix=SCATTER
// RUN: not %mlir_run -e nd_first_of_two %t.mlir 2>&1 | FileCheck %s --check-prefix=ND
// RUN: not %mlir_run -e clamp_empty_dim %t.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not %mlir_run -e updates_dim %t.mlir 2>&1 | FileCheck %s --check-prefix=UPDATES
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm > %t.linalg.mlir
// RUN: not --crash %unbuffered_mlir_run -e scatter_oob %t.linalg.mlir 2>&1 | FileCheck %s --check-prefix=LINALG
// RUN: not --crash %unbuffered_mlir_run -e updates_dim %t.linalg.mlir 2>&1 | FileCheck %s --check-prefix=LINALG-UPDATES

// A failed check names the op, the first bad index in row-major order and
// the valid range, and prints no data: the scan runs before anything is
// written.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @run(%d: tensor<5xf32>, %i: tensor<?xi64>, %u: tensor<?xf32>) {
  %r = gather.scatter %d[%i], %u {reduction = #gather<combine add>} : (tensor<5xf32>, tensor<?xi64>, tensor<?xf32>) -> tensor<5xf32>
  %c = tensor.cast %r : tensor<5xf32> to tensor<*xf32>
  call @printMemrefF32(%c) : (tensor<*xf32>) -> ()
  return
}

// SCATTER: error: gather.scatter: index 7 is out of range [-5, 4] for data dimension 0 of size 5
// SCATTER-NOT: data =
// LINALG: gather.scatter: an index is out of range [-5, 4] for dest dimension 0 of size 5
// LINALG-NOT: data =
func.func @scatter_oob() {
  %d = arith.constant dense<0.0> : tensor<5xf32>
  %i = arith.constant dense<[1, 7, -9]> : tensor<3xi64>
  %u = arith.constant dense<1.0> : tensor<3xf32>
  %id = tensor.cast %i : tensor<3xi64> to tensor<?xi64>
  %ud = tensor.cast %u : tensor<3xf32> to tensor<?xf32>
  call @run(%d, %id, %ud) : (tensor<5xf32>, tensor<?xi64>, tensor<?xf32>) -> ()
  return
}

// ND: error: gather.scatter_nd: index 4 is out of range [-4, 3] for data dimension 1 of size 4
func.func @nd_first_of_two() {
  %d = arith.constant dense<0.0> : tensor<3x4xf32>
  %i = arith.constant dense<[[0, 1], [2, 4], [5, 0]]> : tensor<3x2xi64>
  %u = arith.constant dense<1.0> : tensor<3xf32>
  %r = gather.scatter_nd %d[%i], %u : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<3x4xf32>
  %c = tensor.cast %r : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%c) : (tensor<*xf32>) -> ()
  return
}

// EMPTY: error: gather.scatter: index 0 selects along data dimension 0, which is empty (size 0)
/// (A static empty dim is the verifier's error; this one is dynamic.)
func.func @clamp_empty_dim() {
  %e = tensor.empty() : tensor<0x2xf32>
  %d = tensor.cast %e : tensor<0x2xf32> to tensor<?x2xf32>
  %i = arith.constant dense<[0]> : tensor<1xi64>
  %u = arith.constant dense<1.0> : tensor<1x2xf32>
  %r = gather.scatter %d[%i], %u {mode = #gather<mode clamp>} : (tensor<?x2xf32>, tensor<1xi64>, tensor<1x2xf32>) -> tensor<?x2xf32>
  %c = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%c) : (tensor<*xf32>) -> ()
  return
}

// UPDATES: error: gather.scatter: updates dimension 0 has size 2, but dest and indices give 3
// LINALG-UPDATES: gather.scatter: updates dimension 0 differs from the gather's result for dest and indices
func.func @updates_dim() {
  %d = arith.constant dense<0.0> : tensor<5xf32>
  %i = arith.constant dense<[1, 2, 3]> : tensor<3xi64>
  %u = arith.constant dense<1.0> : tensor<2xf32>
  %id = tensor.cast %i : tensor<3xi64> to tensor<?xi64>
  %ud = tensor.cast %u : tensor<2xf32> to tensor<?xf32>
  call @run(%d, %id, %ud) : (tensor<5xf32>, tensor<?xi64>, tensor<?xf32>) -> ()
  return
}
