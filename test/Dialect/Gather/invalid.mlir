// RUN: gather-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// gather.gather
//===----------------------------------------------------------------------===//

func.func @gather_rank0_data(%d: tensor<f32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'gather.gather' op data must have rank >= 1, but has rank 0}}
  %0 = gather.gather %d[%i] : (tensor<f32>, tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_axis_too_large(%d: tensor<2x5xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'gather.gather' op axis 2 is out of range [-2, 1] for data of rank 2}}
  %0 = gather.gather %d[%i] {axis = 2 : i64} : (tensor<2x5xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_axis_too_negative(%d: tensor<2x5xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{axis -3 is out of range [-2, 1] for data of rank 2}}
  %0 = gather.gather %d[%i] {axis = -3 : i64} : (tensor<2x5xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return
}

// -----

/// INT64_MIN must not overflow during normalization.
func.func @gather_axis_int64_min(%d: tensor<2x5xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{axis -9223372036854775808 is out of range [-2, 1] for data of rank 2}}
  %0 = gather.gather %d[%i] {axis = -9223372036854775808 : i64} : (tensor<2x5xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_axis_int64_max(%d: tensor<2x5xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{axis 9223372036854775807 is out of range [-2, 1] for data of rank 2}}
  %0 = gather.gather %d[%i] {axis = 9223372036854775807 : i64} : (tensor<2x5xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_batch_dims_too_large(%d: tensor<2x5xf32>, %i: tensor<2x3xi32>) {
  // expected-error @+1 {{'gather.gather' op batch_dims 3 is out of range [-2, 2] for indices of rank 2}}
  %0 = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 3 : i64} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_batch_dims_int64_min(%d: tensor<2x5xf32>, %i: tensor<2x3xi32>) {
  // expected-error @+1 {{batch_dims -9223372036854775808 is out of range [-2, 2] for indices of rank 2}}
  %0 = gather.gather %d[%i] {axis = 1 : i64, batch_dims = -9223372036854775808 : i64} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_batch_dims_exceed_axis(%d: tensor<2x5xf32>, %i: tensor<2x3xi32>) {
  // expected-error @+1 {{'gather.gather' op batch_dims 1 must not exceed axis 0}}
  %0 = gather.gather %d[%i] {axis = 0 : i64, batch_dims = 1 : i64} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3x5xf32>
  return
}

// -----

/// The message shows the normalized values when the written ones are negative.
func.func @gather_negative_batch_dims_exceed_axis(%d: tensor<2x5xf32>, %i: tensor<2x3xi32>) {
  // expected-error @+1 {{batch_dims -1 (normalized: 1) must not exceed axis -2 (normalized: 0)}}
  %0 = gather.gather %d[%i] {axis = -2 : i64, batch_dims = -1 : i64} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @gather_batch_dim_mismatch(%d: tensor<2x5xf32>, %i: tensor<3x3xi32>) {
  // expected-error @+1 {{'gather.gather' op batch dimension 0 has size 2 in data but 3 in indices}}
  %0 = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5xf32>, tensor<3x3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_empty_axis_check(%d: tensor<0x3xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'gather.gather' op data dimension 0 has size 0, so none of the 2 indices is valid in mode 'check' (use 'fill')}}
  %0 = gather.gather %d[%i] : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_empty_axis_clamp(%d: tensor<0x3xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{data dimension 0 has size 0, so none of the 1 indices is valid in mode 'clamp' (use 'fill')}}
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<0x3xf32>, tensor<i32>) -> tensor<3xf32>
  return
}

// -----

/// 2^62 x 4 indices: their count overflows int64_t (and wraps to 0).
func.func @gather_empty_axis_overflowing_index_count(%d: tensor<4x0xi8>, %i: tensor<4611686018427387904x4xi32>) {
  // expected-error @+1 {{data dimension 1 has size 0, so none of the more than 9223372036854775807 indices is valid in mode 'check' (use 'fill')}}
  %0 = gather.gather %d[%i] {axis = 1 : i64} : (tensor<4x0xi8>, tensor<4611686018427387904x4xi32>) -> tensor<4x4611686018427387904x4xi8>
  return
}

// -----

func.func @gather_result_element_type(%d: tensor<4xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'gather.gather' op result element type 'f16' must match the data element type 'f32'}}
  %0 = gather.gather %d[%i] : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf16>
  return
}

// -----

func.func @gather_result_rank(%d: tensor<4x3xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'gather.gather' op result must have rank 2, but has rank 1}}
  %0 = gather.gather %d[%i] : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<6xf32>
  return
}

// -----

func.func @gather_result_dim(%d: tensor<4x3xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'gather.gather' op result dimension 1 has size 4, but the operands give 3}}
  %0 = gather.gather %d[%i] : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_float_indices(%d: tensor<4xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{operand #1 must be tensor of i8, i16, i32, i64 or index values, but got 'tensor<2xf32>'}}
  %0 = gather.gather %d[%i] : (tensor<4xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_unsigned_indices(%d: tensor<4xf32>, %i: tensor<2xui32>) {
  // expected-error @+1 {{operand #1 must be tensor of i8, i16, i32, i64 or index values}}
  %0 = gather.gather %d[%i] : (tensor<4xf32>, tensor<2xui32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_index_data(%d: tensor<4xindex>, %i: tensor<2xi32>) {
  // expected-error @+1 {{operand #0 must be tensor of signless integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values}}
  %0 = gather.gather %d[%i] : (tensor<4xindex>, tensor<2xi32>) -> tensor<2xindex>
  return
}

// -----

func.func @gather_memref_operand(%d: memref<4xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{operand #0 must be tensor of}}
  %0 = gather.gather %d[%i] : (memref<4xf32>, tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_generic_one_operand(%d: tensor<4xf32>) {
  // expected-error @+1 {{'gather.gather' op expected 2 operands, but found 1}}
  %0 = "gather.gather"(%d) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_generic_no_result(%d: tensor<4xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'gather.gather' op requires one result}}
  "gather.gather"(%d, %i) : (tensor<4xf32>, tensor<2xi32>) -> ()
  return
}

// -----

func.func @gather_generic_float_axis(%d: tensor<4xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{invalid properties}}
  %0 = "gather.gather"(%d, %i) <{axis = 1.0 : f32}> : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_generic_i32_axis(%d: tensor<4xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'gather.gather' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = "gather.gather"(%d, %i) <{axis = 0 : i32}> : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_bad_mode(%d: tensor<4xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{unknown gather mode 'nearest', expected one of: check, fill, clamp, wrap, unchecked}}
  %0 = gather.gather %d[%i] {mode = #gather<mode nearest>} : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_unranked_batch_dims_exceed_axis(%d: tensor<*xf32>, %i: tensor<2x3xi32>) {
  // expected-error @+1 {{batch_dims 2 must not exceed axis 1}}
  %0 = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 2 : i64} : (tensor<*xf32>, tensor<2x3xi32>) -> tensor<*xf32>
  return
}

// -----

/// Unranked indices: the result has data's rank - 1 dims and more.
func.func @gather_unranked_indices_result_rank(%d: tensor<4x5xf32>, %i: tensor<*xi32>) {
  // expected-error @+1 {{'gather.gather' op result must have rank >= 1, but has rank 0}}
  %0 = gather.gather %d[%i] : (tensor<4x5xf32>, tensor<*xi32>) -> tensor<f32>
  return
}

// -----

/// Unranked data: axis 2 needs data of rank >= 3, and 2-D indices add 2 dims.
func.func @gather_unranked_data_result_rank(%d: tensor<*xf32>, %i: tensor<2x3xi32>) {
  // expected-error @+1 {{'gather.gather' op result must have rank >= 4, but has rank 3}}
  %0 = gather.gather %d[%i] {axis = 2 : i64} : (tensor<*xf32>, tensor<2x3xi32>) -> tensor<?x?x?xf32>
  return
}

//===----------------------------------------------------------------------===//
// gather.gather_elements
//===----------------------------------------------------------------------===//

// -----

func.func @gather_elements_rank_mismatch(%d: tensor<2x2xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'gather.gather_elements' op indices must have the rank of data (2), but has rank 1}}
  %0 = gather.gather_elements %d[%i] : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

/// Both unranked: axis 2 needs operands of rank >= 3, and the result has it.
func.func @gather_elements_unranked_result_rank(%d: tensor<*xf32>, %i: tensor<*xi32>) {
  // expected-error @+1 {{'gather.gather_elements' op result must have rank >= 3, but has rank 2}}
  %0 = gather.gather_elements %d[%i] {axis = 2 : i64} : (tensor<*xf32>, tensor<*xi32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @gather_elements_rank0(%d: tensor<f32>, %i: tensor<i64>) {
  // expected-error @+1 {{'gather.gather_elements' op data must have rank >= 1, but has rank 0}}
  %0 = gather.gather_elements %d[%i] : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @gather_elements_unranked_data_rank0_indices(%d: tensor<*xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{'gather.gather_elements' op indices must have rank >= 1, but has rank 0}}
  %0 = gather.gather_elements %d[%i] : (tensor<*xf32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @gather_elements_axis(%d: tensor<2x2xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+1 {{'gather.gather_elements' op axis -3 is out of range [-2, 1] for data of rank 2}}
  %0 = gather.gather_elements %d[%i] {axis = -3 : i64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @gather_elements_indices_larger(%d: tensor<2x2xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{'gather.gather_elements' op indices dimension 0 has size 3, larger than data dimension 0 of size 2 (only the axis dimension may be larger)}}
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<2x2xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @gather_elements_empty_axis_wrap(%d: tensor<2x0xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+1 {{data dimension 1 has size 0, so none of the 2 indices is valid in mode 'wrap' (use 'fill')}}
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x0xf32>, tensor<2x1xi64>) -> tensor<2x1xf32>
  return
}

// -----

func.func @gather_elements_result_shape(%d: tensor<2x2xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.gather_elements' op result dimension 1 has size 2, but the operands give 3}}
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2x3xi64>) -> tensor<2x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// gather.gather_nd
//===----------------------------------------------------------------------===//

// -----

func.func @gather_nd_negative_batch_dims(%d: tensor<2x2xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op batch_dims -1 must be >= 0}}
  %0 = gather.gather_nd %d[%i] {batch_dims = -1 : i64} : (tensor<2x2xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_rank0_indices(%d: tensor<2x2xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{'gather.gather_nd' op indices must have rank >= 1 (its last dimension holds the index tuples), but has rank 0}}
  %0 = gather.gather_nd %d[%i] : (tensor<2x2xf32>, tensor<i64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @gather_nd_batch_dims_not_below_rank(%d: tensor<2x2xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op batch_dims 2 must be less than the rank of indices (2)}}
  %0 = gather.gather_nd %d[%i] {batch_dims = 2 : i64} : (tensor<2x2xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_dynamic_tuple(%d: tensor<2x2xf32>, %i: tensor<2x?xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op the index tuple length (the last dimension of indices) must be static}}
  %0 = gather.gather_nd %d[%i] : (tensor<2x2xf32>, tensor<2x?xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @gather_nd_zero_length_tuple(%d: tensor<2x2xf32>, %i: tensor<2x0xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op index tuples must have at least 1 component, but the last dimension of indices has size 0}}
  %0 = gather.gather_nd %d[%i] : (tensor<2x2xf32>, tensor<2x0xi64>) -> tensor<2x2x2xf32>
  return
}

// -----

func.func @gather_nd_tuple_too_long(%d: tensor<2x2xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op index tuples of length 3 after 0 batch dimensions need data of rank >= 3, but data has rank 2}}
  %0 = gather.gather_nd %d[%i] : (tensor<2x2xf32>, tensor<2x3xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_tuple_too_long_with_batch(%d: tensor<2x2xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+1 {{index tuples of length 2 after 1 batch dimensions need data of rank >= 3, but data has rank 2}}
  %0 = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  return
}

// -----

/// Unranked indices: tuples have at least one component after the batch dims.
func.func @gather_nd_unranked_indices_batch_dims_not_below_data_rank(%d: tensor<4x5xf32>, %i: tensor<*xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op index tuples after 2 batch dimensions need data of rank >= 3, but data has rank 2}}
  %0 = gather.gather_nd %d[%i] {batch_dims = 2 : i64} : (tensor<4x5xf32>, tensor<*xi64>) -> tensor<*xf32>
  return
}

// -----

func.func @gather_nd_batch_dim_mismatch(%d: tensor<3x2x2xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op batch dimension 0 has size 3 in data but 2 in indices}}
  %0 = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<3x2x2xf32>, tensor<2x1xi64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @gather_nd_empty_dim_check(%d: tensor<3x0x4xf32>, %i: tensor<5x2xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op data dimension 1 has size 0, so none of the 5 indices is valid in mode 'check' (use 'fill')}}
  %0 = gather.gather_nd %d[%i] : (tensor<3x0x4xf32>, tensor<5x2xi64>) -> tensor<5x4xf32>
  return
}

// -----

func.func @gather_nd_result_rank(%d: tensor<2x2xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op result must have rank 2, but has rank 1}}
  %0 = gather.gather_nd %d[%i] : (tensor<2x2xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return
}

// -----

/// Unranked data: the result keeps the 2 leading dims of the indices.
func.func @gather_nd_unranked_data_result_rank(%d: tensor<*xf32>, %i: tensor<3x4x2xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op result must have rank >= 2, but has rank 0}}
  %0 = gather.gather_nd %d[%i] : (tensor<*xf32>, tensor<3x4x2xi64>) -> tensor<f32>
  return
}

// -----

func.func @gather_nd_generic_three_operands(%d: tensor<2x2xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+1 {{'gather.gather_nd' op expected 2 operands, but found 3}}
  %0 = "gather.gather_nd"(%d, %i, %i) : (tensor<2x2xf32>, tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x2xf32>
  return
}

// -----

/// A gather-fuzz finding (UBSan in the verifier): gather_nd's shape rule
/// tests b + k > r with k = the index tuple length, the last dim of the
/// indices; k = INT64_MAX overflowed.
// expected-error @+1 {{index tuples of length 9223372036854775807 after 1 batch dimensions need data of rank >= 1 + 9223372036854775807, but data has rank 4}}
func.func @nd_b(%d: tensor<9223372036854775807x3x4x8xf32>, %i: tensor<9223372036854775807x5x9223372036854775807xi32>) -> tensor<0xf32> {gather.gather_nd %d[%i] {batch_dims = 1 } : (tensor<9223372036854775807x3x4x8xf32>,tensor<9223372036854775807x5x9223372036854775807xi32>) -> tensor<0x8xf32>}
