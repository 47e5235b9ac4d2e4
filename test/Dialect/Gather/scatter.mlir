// RUN: gather-opt %s | gather-opt | FileCheck %s
// RUN: gather-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// The scatters parse and print in the contract's textual form; attributes at
// their defaults are left out.

// CHECK-LABEL: func.func @contract_forms
func.func @contract_forms(%d2x5: tensor<2x5xf32>, %i3: tensor<3xi64>, %u2x3: tensor<2x3xf32>,
                          %d3x3: tensor<3x3xf32>, %i2x3: tensor<2x3xi64>,
                          %d4x4: tensor<4x4xf32>, %i3x2: tensor<3x2xi64>, %u3: tensor<3xf32>)
    -> (tensor<2x5xf32>, tensor<3x3xf32>, tensor<4x4xf32>) {
  // CHECK: gather.scatter %{{.*}}[%{{.*}}], %{{.*}} {axis = 1 : i64, mode = #gather<mode fill>, reduction = #gather<combine add>} : (tensor<2x5xf32>, tensor<3xi64>, tensor<2x3xf32>) -> tensor<2x5xf32>
  %s = gather.scatter %d2x5[%i3], %u2x3 {axis = 1 : i64, mode = #gather<mode fill>, reduction = #gather<combine add>} : (tensor<2x5xf32>, tensor<3xi64>, tensor<2x3xf32>) -> tensor<2x5xf32>
  // CHECK: gather.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} {reduction = #gather<combine max>} : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %t = gather.scatter_elements %d3x3[%i2x3], %u2x3 {axis = 0 : i64, reduction = #gather<combine max>} : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  // CHECK: gather.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} {reduction = #gather<combine add>} : (tensor<4x4xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<4x4xf32>
  %u = gather.scatter_nd %d4x4[%i3x2], %u3 {reduction = #gather<combine add>} : (tensor<4x4xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<4x4xf32>
  return %s, %t, %u : tensor<2x5xf32>, tensor<3x3xf32>, tensor<4x4xf32>
}

// CHECK-LABEL: func.func @every_combine_and_mode
func.func @every_combine_and_mode(%d: tensor<?x4xi32>, %i: tensor<?xi32>, %u: tensor<?x4xi32>) {
  // CHECK: gather.scatter %{{.*}}[%{{.*}}], %{{.*}} : (tensor<?x4xi32>
  %0 = gather.scatter %d[%i], %u {reduction = #gather<combine none>, mode = #gather<mode check>} : (tensor<?x4xi32>, tensor<?xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: {mode = #gather<mode wrap>, reduction = #gather<combine mul>}
  %1 = gather.scatter %d[%i], %u {reduction = #gather<combine mul>, mode = #gather<mode wrap>} : (tensor<?x4xi32>, tensor<?xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: {mode = #gather<mode clamp>, reduction = #gather<combine min>}
  %2 = gather.scatter %d[%i], %u {reduction = #gather<combine min>, mode = #gather<mode clamp>} : (tensor<?x4xi32>, tensor<?xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: {mode = #gather<mode unchecked>, reduction = #gather<combine max>}
  %3 = gather.scatter %d[%i], %u {reduction = #gather<combine max>, mode = #gather<mode unchecked>} : (tensor<?x4xi32>, tensor<?xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  return
}

// CHECK-LABEL: func.func @batch_dims_and_scalar_index
func.func @batch_dims_and_scalar_index(%d: tensor<2x5x3xf16>, %i: tensor<2x4xi8>, %u: tensor<2x4x3xf16>,
                                       %v: tensor<5xbf16>, %s: tensor<i64>, %w: tensor<bf16>) {
  // CHECK: {axis = 1 : i64, batch_dims = 1 : i64}
  %0 = gather.scatter %d[%i], %u {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5x3xf16>, tensor<2x4xi8>, tensor<2x4x3xf16>) -> tensor<2x5x3xf16>
  // CHECK: gather.scatter %{{.*}}[%{{.*}}], %{{.*}} {reduction = #gather<combine add>} : (tensor<5xbf16>, tensor<i64>, tensor<bf16>) -> tensor<5xbf16>
  %1 = gather.scatter %v[%s], %w {reduction = #gather<combine add>} : (tensor<5xbf16>, tensor<i64>, tensor<bf16>) -> tensor<5xbf16>
  return
}

/// A scatter of no index is its dest.
// FOLD-LABEL: func.func @fold_no_index
// FOLD-NEXT: return %arg0
func.func @fold_no_index(%d: tensor<4x3xf32>, %i: tensor<0xi64>, %u: tensor<0x3xf32>) -> tensor<4x3xf32> {
  %0 = gather.scatter %d[%i], %u {reduction = #gather<combine add>} : (tensor<4x3xf32>, tensor<0xi64>, tensor<0x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

/// Indices that are not empty keep the scatter.
// FOLD-LABEL: func.func @no_fold
// FOLD: gather.scatter_nd
func.func @no_fold(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = gather.scatter_nd %d[%i], %u : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

/// Casts fold into a scatter's operands as into every destination-style op
/// (the tensor dialect's canonicalization); the result is cast back.
// FOLD-LABEL: func.func @cast_folded
// FOLD: %[[R:.*]] = gather.scatter %{{.*}}[%{{.*}}], %{{.*}} {mode = #gather<mode clamp>} : (tensor<4x2xf32>, tensor<1xi64>, tensor<1x2xf32>) -> tensor<4x2xf32>
// FOLD: tensor.cast %[[R]] : tensor<4x2xf32> to tensor<?x2xf32>
func.func @cast_folded(%e: tensor<4x2xf32>, %i: tensor<1xi64>, %u: tensor<1x2xf32>) -> tensor<?x2xf32> {
  %d = tensor.cast %e : tensor<4x2xf32> to tensor<?x2xf32>
  %r = gather.scatter %d[%i], %u {mode = #gather<mode clamp>} : (tensor<?x2xf32>, tensor<1xi64>, tensor<1x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
