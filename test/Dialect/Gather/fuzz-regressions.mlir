// Fuzzer findings: canonicalization of verifier-valid IR with huge, empty or
// overflowing shapes must finish quickly, in bounded memory, and verify.
// RUN: ulimit -v 1000000 && timeout 60 gather-opt %s --canonicalize --split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// Unknown ranks
//===----------------------------------------------------------------------===//

/// Possibly right: data of rank 2 gives a rank-0 result. It verifies and
/// canonicalizes unchanged.
// CHECK-LABEL: func.func @gather_nd_unranked_data_rank_0_result
// CHECK: gather.gather_nd {{.*}} : (tensor<*xf32>, tensor<2xi64>) -> tensor<f32>
func.func @gather_nd_unranked_data_rank_0_result(%d: tensor<*xf32>) -> tensor<f32> {
  %i = arith.constant dense<[0, 1]> : tensor<2xi64>
  %0 = gather.gather_nd %d[%i] : (tensor<*xf32>, tensor<2xi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

/// The tuple length is unknown: nothing may assume it is 1.
// CHECK-LABEL: func.func @gather_nd_unranked_indices
// CHECK: gather.gather_nd {{.*}}batch_dims = 1
func.func @gather_nd_unranked_indices(%d: tensor<4x5xf32>, %i: tensor<*xi64>) -> tensor<*xf32> {
  %0 = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<4x5xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

