// RUN: not gather-opt %s --convert-embedding-bag-to-scf 2>&1 | FileCheck %s
// RUN: not gather-opt %s --gather-to-llvm 2>&1 | FileCheck %s
// RUN: not gather-opt %s --convert-gather-to-linalg 2>&1 | FileCheck %s --check-prefix=LEGALIZE
// RUN: not gather-opt %s --split-input-file --convert-embedding-bag-to-scf 2>&1 | FileCheck %s --check-prefix=UNRANKED

// Static sizes whose element count overflows int64 (a gather-fuzz finding:
// the collapsed ids of fixed-length bags had a negative size, and the IR
// after expand-strided-metadata did not verify): the lowering says so.
// CHECK: error: convert-embedding-bag-to-scf: static sizes whose element count overflows int64
// LEGALIZE: error: failed to legalize operation 'gather.embedding_bag'
func.func @uncountable(%t: tensor<9223372036854775807x4xf64>, %b: tensor<9223372036854775807x2xindex>) -> tensor<9223372036854775807x4xf64> {
  %0 = gather.embedding_bag %t[%b] {mode = #gather<mode fill>} : (tensor<9223372036854775807x4xf64>, tensor<9223372036854775807x2xindex>) -> tensor<9223372036854775807x4xf64>
  return %0 : tensor<9223372036854775807x4xf64>
}

// -----

// An unranked result (the verifier allows it): refine it first.
// UNRANKED: error: convert-embedding-bag-to-scf needs ranked operands and result (refine them with gather-shape-inference)
func.func @unranked_result(%t: tensor<5x4xf32>, %b: tensor<2x2xi64>) -> tensor<*xf32> {
  %0 = gather.embedding_bag %t[%b] : (tensor<5x4xf32>, tensor<2x2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
