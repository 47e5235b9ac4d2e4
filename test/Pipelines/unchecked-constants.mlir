// RUN: gather-opt %s --gather-to-llvm --split-input-file | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="vectorize=false" --split-input-file | FileCheck %s

/// `unchecked` promises nothing about an index, so a constant index out of
/// range of constant data behind a cast must still lower: the read of data
/// stays a load that no folder evaluates (affine.load's folder would read
/// the constant out of bounds and crash the compiler).
// CHECK-LABEL: llvm.func @gather_0d_index
// CHECK: llvm.load
func.func @gather_0d_index() -> tensor<i64> {
  %d = arith.constant dense<[0, -11]> : tensor<2xi64>
  %d2 = tensor.cast %d : tensor<2xi64> to tensor<?xi64>
  %i = arith.constant dense<1000000> : tensor<index>
  %r = gather.gather %d2[%i] {mode = #gather<mode unchecked>} : (tensor<?xi64>, tensor<index>) -> tensor<i64>
  return %r : tensor<i64>
}

// -----

// CHECK-LABEL: llvm.func @gather_rows
// CHECK: llvm.load
func.func @gather_rows() -> tensor<1x3xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %d2 = tensor.cast %d : tensor<2x3xf32> to tensor<?x3xf32>
  %i = arith.constant dense<[77]> : tensor<1xi32>
  %r = gather.gather %d2[%i] {mode = #gather<mode unchecked>} : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// -----

// CHECK-LABEL: llvm.func @gather_elements_constant
// CHECK: llvm.{{load|intr.masked.gather}}
func.func @gather_elements_constant() -> tensor<1xi64> {
  %d = arith.constant dense<[0, -11]> : tensor<2xi64>
  %d2 = tensor.cast %d : tensor<2xi64> to tensor<?xi64>
  %i = arith.constant dense<[-9]> : tensor<1xindex>
  %r = gather.gather_elements %d2[%i] {mode = #gather<mode unchecked>} : (tensor<?xi64>, tensor<1xindex>) -> tensor<1xi64>
  return %r : tensor<1xi64>
}

// -----

// CHECK-LABEL: llvm.func @gather_nd_constant
// CHECK: llvm.load
func.func @gather_nd_constant() -> tensor<i64> {
  %d = arith.constant dense<[[0, -11], [3, 4]]> : tensor<2x2xi64>
  %d2 = tensor.cast %d : tensor<2x2xi64> to tensor<?x?xi64>
  %i = arith.constant dense<[5, 1000]> : tensor<2xi64>
  %r = gather.gather_nd %d2[%i] {mode = #gather<mode unchecked>} : (tensor<?x?xi64>, tensor<2xi64>) -> tensor<i64>
  return %r : tensor<i64>
}
