// RUN: gather-opt %s --canonicalize --split-input-file | FileCheck %s

//===----------------------------------------------------------------------===//
// Constant folding
//===----------------------------------------------------------------------===//

/// OpenVINO Gather-8 example 7, folded.
// CHECK-LABEL: func.func @fold_constant_gather_fill
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[4, 0, 0]> : tensor<3xi32>
// CHECK-NEXT: return %[[C]]
func.func @fold_constant_gather_fill() -> tensor<3xi32> {
  %d = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i = arith.constant dense<[3, 10, -20]> : tensor<3xi64>
  %0 = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @fold_constant_gather_elements_and_nd
// CHECK-DAG: arith.constant dense<{{\[}}[7.000000e+00, 7.000000e+00, 1.000000e+00], [3.000000e+00, 4.000000e+00, 3.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG: arith.constant dense<{{\[}}[2, 3], [4, 5]]> : tensor<2x2xi32>
// CHECK-NOT: gather.
func.func @fold_constant_gather_elements_and_nd() -> (tensor<2x3xf32>, tensor<2x2xi32>) {
  %d = arith.constant dense<[[1.0, 7.0], [4.0, 3.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[1, 1, 0], [1, 0, 1]]> : tensor<2x3xi32>
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  %n = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %j = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %1 = gather.gather_nd %n[%j] {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x2xi32>
}

// -----

/// Splat data in a mode where every index selects something.
// CHECK-LABEL: func.func @fold_splat_data_clamp
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<7x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @fold_splat_data_clamp(%i: tensor<7xi64>) -> tensor<7x3xf32> {
  %d = arith.constant dense<2.5> : tensor<4x3xf32>
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<4x3xf32>, tensor<7xi64>) -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}

// -----

/// check mode could fail at run time: the gather (and its error) stays.
// CHECK-LABEL: func.func @negative_fold_splat_data_check
// CHECK: gather.gather
func.func @negative_fold_splat_data_check(%i: tensor<7xi64>) -> tensor<7x3xf32> {
  %d = arith.constant dense<2.5> : tensor<4x3xf32>
  %0 = gather.gather %d[%i] : (tensor<4x3xf32>, tensor<7xi64>) -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}

// -----

/// fill mode may produce zeros: not a splat.
// CHECK-LABEL: func.func @negative_fold_splat_data_fill
// CHECK: gather.gather
func.func @negative_fold_splat_data_fill(%i: tensor<7xi64>) -> tensor<7x3xf32> {
  %d = arith.constant dense<2.5> : tensor<4x3xf32>
  %0 = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<4x3xf32>, tensor<7xi64>) -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}

// -----

/// A result of more than 4096 elements is not materialized (splat results
/// are: they cost one element).
// CHECK-LABEL: func.func @negative_fold_too_large
// CHECK: gather.gather
func.func @negative_fold_too_large() -> tensor<4097xi8> {
  %d = arith.constant dense<[1, 2]> : tensor<2xi8>
  %i = arith.constant dense<1> : tensor<4097xi32>
  %0 = gather.gather %d[%i] : (tensor<2xi8>, tensor<4097xi32>) -> tensor<4097xi8>
  return %0 : tensor<4097xi8>
}

//===----------------------------------------------------------------------===//
// Identity
//===----------------------------------------------------------------------===//

// -----

/// Indices that select the whole axis in order (-2 is 2) give the data.
// CHECK-LABEL: func.func @fold_iota_indices_to_data
// CHECK-SAME: (%[[D:.*]]: tensor<4x3xf32>)
// CHECK-NEXT: return %[[D]]
func.func @fold_iota_indices_to_data(%d: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %i = arith.constant dense<[0, 1, -2, 3]> : tensor<4xi32>
  %0 = gather.gather %d[%i] : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @fold_gather_elements_coordinates_to_data
// CHECK-SAME: (%[[D:.*]]: tensor<2x3xi8>)
// CHECK-NEXT: return %[[D]]
func.func @fold_gather_elements_coordinates_to_data(%d: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %i = arith.constant dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi64>
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<2x3xi8>, tensor<2x3xi64>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

/// A permutation is not the identity; the indices are in range, so the
/// check is dropped.
// CHECK-LABEL: func.func @negative_fold_permutation
// CHECK: gather.gather {{.*}}mode = #gather<mode unchecked>
func.func @negative_fold_permutation(%d: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %i = arith.constant dense<[1, 0, 2, 3]> : tensor<4xi32>
  %0 = gather.gather %d[%i] : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// GatherToExtractSlice
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @slice_contiguous_run
// CHECK-SAME: (%[[D:.*]]: tensor<?x8xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[D]], %c0
// CHECK: %[[S:.*]] = tensor.extract_slice %[[D]][0, 2] [%[[N]], 3] [1, 1] : tensor<?x8xf32> to tensor<?x3xf32>
// CHECK: return %[[S]]
func.func @slice_contiguous_run(%d: tensor<?x8xf32>) -> tensor<?x3xf32> {
  %i = arith.constant dense<[2, 3, 4]> : tensor<3xi32>
  %0 = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x8xf32>, tensor<3xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

/// A scalar index drops the axis: a rank-reducing slice.
// CHECK-LABEL: func.func @slice_scalar_index
// CHECK: tensor.extract_slice %{{.*}}[7, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
func.func @slice_scalar_index(%d: tensor<8x4xf32>) -> tensor<4xf32> {
  %i = arith.constant dense<-1> : tensor<i64>
  %0 = gather.gather %d[%i] : (tensor<8x4xf32>, tensor<i64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// wrap maps [-2, -1] to the run [6, 7].
// CHECK-LABEL: func.func @slice_wrapped_run
// CHECK: tensor.extract_slice %{{.*}}[6, 0] [2, 4] [1, 1]
func.func @slice_wrapped_run(%d: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %i = arith.constant dense<[-2, -1]> : tensor<2xi64>
  %0 = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<8x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

/// N-D indices forming one run: a slice whose run splits into their shape.
// CHECK-LABEL: func.func @slice_run_with_2d_indices
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[0, 4, 0] [%{{.*}}, 4, 3] [1, 1, 1] : tensor<?x8x3xf32> to tensor<?x4x3xf32>
// CHECK: tensor.expand_shape %[[S]] {{\[}}[0], [1, 2], [3]] output_shape [%{{.*}}, 2, 2, 3] : tensor<?x4x3xf32> into tensor<?x2x2x3xf32>
func.func @slice_run_with_2d_indices(%d: tensor<?x8x3xf32>) -> tensor<?x2x2x3xf32> {
  %i = arith.constant dense<[[4, 5], [6, 7]]> : tensor<2x2xi32>
  %0 = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x8x3xf32>, tensor<2x2xi32>) -> tensor<?x2x2x3xf32>
  return %0 : tensor<?x2x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @negative_slice_not_contiguous
// CHECK-NOT: tensor.extract_slice
// CHECK: gather.gather
func.func @negative_slice_not_contiguous(%d: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %i = arith.constant dense<[2, 4]> : tensor<2xi64>
  %0 = gather.gather %d[%i] : (tensor<8x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

/// Index 8 fills a zero row: not a slice.
// CHECK-LABEL: func.func @negative_slice_fill_out_of_range
// CHECK-NOT: tensor.extract_slice
// CHECK: gather.gather {{.*}}mode = #gather<mode fill>
func.func @negative_slice_fill_out_of_range(%d: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %i = arith.constant dense<[7, 8]> : tensor<2xi64>
  %0 = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<8x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

/// Per-batch indices are not one slice.
// CHECK-LABEL: func.func @negative_slice_batch_dims
// CHECK-NOT: tensor.extract_slice
// CHECK: gather.gather
func.func @negative_slice_batch_dims(%d: tensor<2x8xf32>) -> tensor<2x2xf32> {
  %i = arith.constant dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>
  %0 = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x8xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

//===----------------------------------------------------------------------===//
// ComposeGathers
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @compose_gather_of_gather
// CHECK-SAME: (%[[D:.*]]: tensor<10x4xf32>, %[[I1:.*]]: tensor<6xi32>, %[[I2:.*]]: tensor<2x3xi64>)
// CHECK: %[[J:.*]] = gather.gather %[[I1]][%[[I2]]] : (tensor<6xi32>, tensor<2x3xi64>) -> tensor<2x3xi32>
// CHECK: %[[R:.*]] = gather.gather %[[D]][%[[J]]] {mode = #gather<mode clamp>} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
// CHECK: return %[[R]]
func.func @compose_gather_of_gather(%d: tensor<10x4xf32>, %i1: tensor<6xi32>, %i2: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %0 = gather.gather %d[%i1] {mode = #gather<mode clamp>} : (tensor<10x4xf32>, tensor<6xi32>) -> tensor<6x4xf32>
  %1 = gather.gather %0[%i2] : (tensor<6x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

/// An outer fill would zero whole slices, which a gather of indices cannot.
// CHECK-LABEL: func.func @negative_compose_outer_fill
// CHECK: %[[A:.*]] = gather.gather %{{.*}}[%{{.*}}] {mode = #gather<mode wrap>}
// CHECK: gather.gather %[[A]]
func.func @negative_compose_outer_fill(%d: tensor<10x4xf32>, %i1: tensor<6xi32>, %i2: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = gather.gather %d[%i1] {mode = #gather<mode wrap>} : (tensor<10x4xf32>, tensor<6xi32>) -> tensor<6x4xf32>
  %1 = gather.gather %0[%i2] {mode = #gather<mode fill>} : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

/// An inner check must still report indices the outer gather never selects.
// CHECK-LABEL: func.func @negative_compose_inner_check
// CHECK: %[[A:.*]] = gather.gather %{{.*}}[%{{.*}}] :
// CHECK: gather.gather %[[A]]
func.func @negative_compose_inner_check(%d: tensor<10x4xf32>, %i1: tensor<6xi32>, %i2: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = gather.gather %d[%i1] : (tensor<10x4xf32>, tensor<6xi32>) -> tensor<6x4xf32>
  %1 = gather.gather %0[%i2] {mode = #gather<mode clamp>} : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @negative_compose_other_axis
// CHECK: %[[A:.*]] = gather.gather
// CHECK: gather.gather %[[A]]
func.func @negative_compose_other_axis(%d: tensor<10x4xf32>, %i1: tensor<6xi32>, %i2: tensor<3xi64>) -> tensor<6x3xf32> {
  %0 = gather.gather %d[%i1] {mode = #gather<mode clamp>} : (tensor<10x4xf32>, tensor<6xi32>) -> tensor<6x4xf32>
  %1 = gather.gather %0[%i2] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x3xf32>
  return %1 : tensor<6x3xf32>
}

//===----------------------------------------------------------------------===//
// RelaxModeToUnchecked
//===----------------------------------------------------------------------===//

// -----

/// x & 7 is in [0, 7]: every index is valid for 8 rows.
// CHECK-LABEL: func.func @relax_mode_from_range
// CHECK: gather.gather {{.*}}mode = #gather<mode unchecked>
func.func @relax_mode_from_range(%d: tensor<8x4xf32>, %x: tensor<5xi32>) -> tensor<5x4xf32> {
  %c7 = arith.constant dense<7> : tensor<5xi32>
  %i = arith.andi %x, %c7 : tensor<5xi32>
  %0 = gather.gather %d[%i] : (tensor<8x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

// CHECK-LABEL: func.func @negative_relax_mode_range_too_wide
// CHECK: gather.gather {{.*}}mode = #gather<mode wrap>
func.func @negative_relax_mode_range_too_wide(%d: tensor<8x4xf32>, %x: tensor<5xi32>) -> tensor<5x4xf32> {
  %c15 = arith.constant dense<15> : tensor<5xi32>
  %i = arith.andi %x, %c15 : tensor<5xi32>
  %0 = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<8x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

/// Each tuple component is in range for its own dimension.
// CHECK-LABEL: func.func @relax_mode_gather_nd_constants
// CHECK: gather.gather_nd {{.*}}mode = #gather<mode unchecked>
func.func @relax_mode_gather_nd_constants(%d: tensor<2x5x?xf32>) -> tensor<3x?xf32> {
  %i = arith.constant dense<[[1, 4], [-2, -5], [0, 2]]> : tensor<3x2xi64>
  %0 = gather.gather_nd %d[%i] {mode = #gather<mode fill>} : (tensor<2x5x?xf32>, tensor<3x2xi64>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

/// The size of the axis is not known: nothing is provably in range.
// CHECK-LABEL: func.func @negative_relax_mode_dynamic_axis
// CHECK: gather.gather_elements {{.*}} :
// CHECK-NOT: unchecked
func.func @negative_relax_mode_dynamic_axis(%d: tensor<?x3xf32>) -> tensor<2x3xf32> {
  %i = arith.constant dense<[[0, 1, 0], [1, 0, 1]]> : tensor<2x3xi64>
  %0 = gather.gather_elements %d[%i] : (tensor<?x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// Canonicalization exposes the constant behind the cast; the gather stays
/// valid and unfolded (its index 7 is an error only if the branch runs).
// CHECK-LABEL: func.func @constant_out_of_range_in_branch_stays
// CHECK: %[[K:.*]] = arith.constant dense<7> : tensor<1xi64>
// CHECK: scf.if
// CHECK:   gather.gather %{{.*}}[%[[K]]]
func.func @constant_out_of_range_in_branch_stays(%c: i1, %d: tensor<4xf32>, %e: tensor<1xf32>) -> tensor<1xf32> {
  %r = scf.if %c -> (tensor<1xf32>) {
    %k = arith.constant dense<[7]> : tensor<1xi64>
    %i = tensor.cast %k : tensor<1xi64> to tensor<1xi64>
    %g = gather.gather %d[%i] : (tensor<4xf32>, tensor<1xi64>) -> tensor<1xf32>
    scf.yield %g : tensor<1xf32>
  } else {
    scf.yield %e : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

/// A constant run into data whose static sizes overflow int64 stays a
/// gather: the view of a slice computes its linear offset, which would
/// overflow (a gather-fuzz finding: a negative offset in expand-strided-metadata).
// CHECK-LABEL: func.func @negative_slice_of_data_too_large_to_address
// CHECK: gather.gather
// CHECK-NOT: tensor.extract_slice
func.func @negative_slice_of_data_too_large_to_address(%d: tensor<4294967296x9223372036854775807xf32>) -> tensor<2x9223372036854775807xf32> {
  %i = arith.constant dense<[-2, -1]> : tensor<2xi64>
  %0 = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<4294967296x9223372036854775807xf32>, tensor<2xi64>) -> tensor<2x9223372036854775807xf32>
  return %0 : tensor<2x9223372036854775807xf32>
}
