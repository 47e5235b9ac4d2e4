// Fuzzer findings: canonicalization of verifier-valid IR with huge, empty or
// overflowing shapes must finish quickly, in bounded memory, and verify.
// RUN: %limit_memory && timeout 60 gather-opt %s --canonicalize --split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// Splat indices are one value, whatever their shape
//===----------------------------------------------------------------------===//

/// 10^10 indices: checked and relaxed without reading 10^10 values.
// CHECK-LABEL: func.func @splat_indices_1e10_relaxed
// CHECK: gather.gather {{.*}}mode = #gather<mode unchecked>
func.func @splat_indices_1e10_relaxed(%d: tensor<4xf32>) -> tensor<100000x100000xf32> {
  %i = arith.constant dense<0> : tensor<100000x100000xi32>
  %0 = gather.gather %d[%i] : (tensor<4xf32>, tensor<100000x100000xi32>) -> tensor<100000x100000xf32>
  return %0 : tensor<100000x100000xf32>
}

// -----

/// 2*10^8 indices (1.6 GB as a vector of int64_t) fit in the memory limit
/// only if they are not copied.
// CHECK-LABEL: func.func @splat_indices_2e8_relaxed
// CHECK: gather.gather {{.*}}mode = #gather<mode unchecked>
func.func @splat_indices_2e8_relaxed(%d: tensor<4xf32>) -> tensor<20000x10000xf32> {
  %i = arith.constant dense<0> : tensor<20000x10000xi32>
  %0 = gather.gather %d[%i] : (tensor<4xf32>, tensor<20000x10000xi32>) -> tensor<20000x10000xf32>
  return %0 : tensor<20000x10000xf32>
}

// -----

/// A splat tuple is checked per component: 5 is in range for dimension 0
/// (size 10) but not for dimension 1 (size 2), so clamp stays.
// CHECK-LABEL: func.func @gather_nd_splat_indices_component_out_of_range
// CHECK: gather.gather_nd {{.*}}mode = #gather<mode clamp>
func.func @gather_nd_splat_indices_component_out_of_range(%d: tensor<10x2xf32>) -> tensor<100000x100000xf32> {
  %i = arith.constant dense<5> : tensor<100000x100000x2xi32>
  %0 = gather.gather_nd %d[%i] {mode = #gather<mode clamp>} : (tensor<10x2xf32>, tensor<100000x100000x2xi32>) -> tensor<100000x100000xf32>
  return %0 : tensor<100000x100000xf32>
}

//===----------------------------------------------------------------------===//
// Folding checks its size limit before computing anything
//===----------------------------------------------------------------------===//

// -----

/// A 10^10-element result is not folded (it becomes a slice).
// CHECK-LABEL: func.func @large_static_result_constant_indices
// CHECK: tensor.extract_slice %{{.*}}[1, 0, 0] [1, 100000, 100000] [1, 1, 1]
func.func @large_static_result_constant_indices(%d: tensor<4x100000x100000xf32>) -> tensor<1x100000x100000xf32> {
  %i = arith.constant dense<[1]> : tensor<1xi32>
  %0 = gather.gather %d[%i] : (tensor<4x100000x100000xf32>, tensor<1xi32>) -> tensor<1x100000x100000xf32>
  return %0 : tensor<1x100000x100000xf32>
}

//===----------------------------------------------------------------------===//
// GatherToExtractSlice and empty data
//===----------------------------------------------------------------------===//

// -----

/// tensor.extract_slice rejects every slice of a tensor with a static 0-size
/// dimension: the gather stays.
// CHECK-LABEL: func.func @no_slice_of_data_with_empty_dim
// CHECK-NOT: tensor.extract_slice
// CHECK: gather.gather
func.func @no_slice_of_data_with_empty_dim(%d: tensor<3x0xf32>) -> tensor<2x0xf32> {
  %i = arith.constant dense<[1, 2]> : tensor<2xi32>
  %0 = gather.gather %d[%i] : (tensor<3x0xf32>, tensor<2xi32>) -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

// CHECK-LABEL: func.func @no_slice_of_data_with_empty_leading_dim
// CHECK-NOT: tensor.extract_slice
// CHECK: gather.gather
func.func @no_slice_of_data_with_empty_leading_dim(%d: tensor<0x3xf32>) -> tensor<0x2xf32> {
  %i = arith.constant dense<[1, 2]> : tensor<2xi32>
  %0 = gather.gather %d[%i] {axis = 1 : i64} : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

//===----------------------------------------------------------------------===//
// Unknown ranks
//===----------------------------------------------------------------------===//

// -----

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

//===----------------------------------------------------------------------===//
// Static sizes whose product overflows int64_t
//===----------------------------------------------------------------------===//

// -----

/// 2^62 x 4 indices: their count wraps to 0 in 64 bits. The splat 9 is out
/// of range for size 4, so clamp stays.
// CHECK-LABEL: func.func @overflowing_splat_indices_clamp_stays
// CHECK: gather.gather {{.*}}mode = #gather<mode clamp>
func.func @overflowing_splat_indices_clamp_stays(%d: tensor<4x2xi8>) -> tensor<4611686018427387904x4x2xi8> {
  %i = arith.constant dense<9> : tensor<4611686018427387904x4xi32>
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<4x2xi8>, tensor<4611686018427387904x4xi32>) -> tensor<4611686018427387904x4x2xi8>
  return %0 : tensor<4611686018427387904x4x2xi8>
}

// -----

/// The data's row-major strides overflow: a fold through them would read
/// garbage positions (here: zeros). Every element is the splat 7.
// CHECK-LABEL: func.func @overflowing_data_shape_fill_fold
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<7> : tensor<2x4x1xi8>
// CHECK-NEXT: return %[[C]]
func.func @overflowing_data_shape_fill_fold() -> tensor<2x4x1xi8> {
  %d = arith.constant dense<7> : tensor<2x4x4611686018427387904xi8>
  %i = arith.constant dense<[1]> : tensor<1xi32>
  %0 = gather.gather %d[%i] {axis = 2 : i64, mode = #gather<mode fill>} : (tensor<2x4x4611686018427387904xi8>, tensor<1xi32>) -> tensor<2x4x1xi8>
  return %0 : tensor<2x4x1xi8>
}

//===----------------------------------------------------------------------===//
// ComposeGathers and empty dimensions
//===----------------------------------------------------------------------===//

// -----

/// gather(I1, I2) would read a 0-size I1 in wrap mode: invalid, so the pair
/// stays (the dynamic dimension of the first result hides the 0).
// CHECK-LABEL: func.func @no_compose_with_empty_first_indices
// CHECK: %[[G:.*]] = gather.gather %{{.*}}[%{{.*}}] {mode = #gather<mode wrap>} : (tensor<5xf32>, tensor<0xi32>)
// CHECK: gather.gather %[[G]]
func.func @no_compose_with_empty_first_indices(%d: tensor<5xf32>, %i1: tensor<0xi32>, %i2: tensor<3xi32>) -> tensor<3xf32> {
  %0 = gather.gather %d[%i1] {mode = #gather<mode wrap>} : (tensor<5xf32>, tensor<0xi32>) -> tensor<?xf32>
  %1 = gather.gather %0[%i2] {mode = #gather<mode wrap>} : (tensor<?xf32>, tensor<3xi32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

/// gather(D, gather(I1, I2)) would read 3 indices from the 0-size data in
/// clamp mode: invalid, so the pair stays.
// CHECK-LABEL: func.func @no_compose_with_empty_data_axis
// CHECK: %[[G:.*]] = gather.gather %{{.*}}[%{{.*}}] {mode = #gather<mode clamp>} : (tensor<0xf32>, tensor<?xi32>)
// CHECK: gather.gather %[[G]]
func.func @no_compose_with_empty_data_axis(%d: tensor<0xf32>, %i1: tensor<?xi32>, %i2: tensor<3xi32>) -> tensor<3xf32> {
  %0 = gather.gather %d[%i1] {mode = #gather<mode clamp>} : (tensor<0xf32>, tensor<?xi32>) -> tensor<?xf32>
  %1 = gather.gather %0[%i2] {mode = #gather<mode unchecked>} : (tensor<?xf32>, tensor<3xi32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
