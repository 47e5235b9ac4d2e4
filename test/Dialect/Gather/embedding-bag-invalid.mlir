// RUN: gather-opt %s -split-input-file -verify-diagnostics

func.func @table_rank(%t: tensor<8xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op weight must be 2-D [num, dim], but has rank 1}}
  %0 = gather.embedding_bag %t[%i] : (tensor<8xf32>, tensor<2x3xi64>) -> tensor<2x8xf32>
  return
}

// -----

func.func @table_dtype(%t: tensor<8x4xi32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op operand #0 must be tensor of f16, bf16, f32, f64, or i8 (a row-wise quantized table) values}}
  %0 = gather.embedding_bag %t[%i] : (tensor<8x4xi32>, tensor<2x3xi64>) -> tensor<2x4xi32>
  return
}

// -----

func.func @ids_rank_with_offsets(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>, %o: tensor<2xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op ids must be 1-D with offsets}}
  %0 = gather.embedding_bag %t[%i] offsets(%o) : (tensor<8x4xf32>, tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @ids_unranked_with_offsets(%t: tensor<8x4xf32>, %i: tensor<*xi64>, %o: tensor<2xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op ids must be 1-D with offsets, but is unranked}}
  %0 = gather.embedding_bag %t[%i] offsets(%o) : (tensor<8x4xf32>, tensor<*xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @ids_rank_without_offsets(%t: tensor<8x4xf32>, %i: tensor<6xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op ids must be 2-D [bags, n] without offsets (fixed-length bags)}}
  %0 = gather.embedding_bag %t[%i] : (tensor<8x4xf32>, tensor<6xi64>) -> tensor<6x4xf32>
  return
}

// -----

func.func @offsets_rank(%t: tensor<8x4xf32>, %i: tensor<6xi64>, %o: tensor<2x1xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op offsets must be 1-D}}
  %0 = gather.embedding_bag %t[%i] offsets(%o) : (tensor<8x4xf32>, tensor<6xi64>, tensor<2x1xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @last_offset_without_offsets(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op include_last_offset needs offsets}}
  %0 = gather.embedding_bag %t[%i] {include_last_offset} : (tensor<8x4xf32>, tensor<2x3xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @last_offset_none(%t: tensor<8x4xf32>, %i: tensor<6xi64>, %o: tensor<0xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op include_last_offset needs at least one offset (the end of the last bag)}}
  %0 = gather.embedding_bag %t[%i] offsets(%o) {include_last_offset} : (tensor<8x4xf32>, tensor<6xi64>, tensor<0xi64>) -> tensor<0x4xf32>
  return
}

// -----

func.func @weights_with_mean(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>, %w: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op per_sample_weights is only supported with reduction sum}}
  %0 = gather.embedding_bag %t[%i] per_sample_weights(%w) : (tensor<8x4xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @weights_shape(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>, %w: tensor<2x4xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op per_sample_weights must have the shape of ids}}
  %0 = gather.embedding_bag %t[%i] per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<8x4xf32>, tensor<2x3xi64>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @weights_dtype(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>, %w: tensor<2x3xf64>) {
  // expected-error @+1 {{'gather.embedding_bag' op per_sample_weights must have the element type of weight}}
  %0 = gather.embedding_bag %t[%i] per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<8x4xf32>, tensor<2x3xi64>, tensor<2x3xf64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @padding_range(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op padding_idx -9 is out of range [-8, 7] for a table of 8 rows}}
  %0 = gather.embedding_bag %t[%i] {padding_idx = -9 : i64} : (tensor<8x4xf32>, tensor<2x3xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @result_dim(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op result dimension 0 has size 3, but the operands give 2}}
  %0 = gather.embedding_bag %t[%i] : (tensor<8x4xf32>, tensor<2x3xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @result_dtype(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op result element type 'f16' must match the weight element type 'f32'}}
  %0 = gather.embedding_bag %t[%i] : (tensor<8x4xf32>, tensor<2x3xi64>) -> tensor<2x4xf16>
  return
}

// -----

func.func @reduction_name(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{unknown bag reduction 'min', expected one of: sum, mean, max}}
  %0 = gather.embedding_bag %t[%i] {reduction = #gather<reduction min>} : (tensor<8x4xf32>, tensor<2x3xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @result_rank(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op result must have rank 2 ([bags, dim]), but has rank 3}}
  %0 = gather.embedding_bag %t[%i] : (tensor<8x4xf32>, tensor<2x3xi64>) -> tensor<2x4x1xf32>
  return
}

// -----

func.func @bytes_without_rowwise(%t: tensor<8x12xi8>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op a table of i8 is a quantized table: it needs rowwise_bits (8 or 4), or scales with block_bits and block_size}}
  %0 = gather.embedding_bag %t[%i] : (tensor<8x12xi8>, tensor<2x3xi64>) -> tensor<2x12xf32>
  return
}

// -----

func.func @rowwise_bits_value(%t: tensor<8x12xi8>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op rowwise_bits must be 8 or 4, not 2}}
  %0 = gather.embedding_bag %t[%i] {rowwise_bits = 2 : i64} : (tensor<8x12xi8>, tensor<2x3xi64>) -> tensor<2x16xf32>
  return
}

// -----

func.func @rowwise_float_table(%t: tensor<8x12xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op a row-wise quantized table (rowwise_bits) holds bytes: weight must have element type i8}}
  %0 = gather.embedding_bag %t[%i] {rowwise_bits = 8 : i64} : (tensor<8x12xf32>, tensor<2x3xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rowwise_short_rows(%t: tensor<8x6xi8>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op rows of 6 bytes are shorter than the 8 bytes of their scale and bias (rowwise_bits = 8)}}
  %0 = gather.embedding_bag %t[%i] {rowwise_bits = 8 : i64} : (tensor<8x6xi8>, tensor<2x3xi64>) -> tensor<2x?xf32>
  return
}

// -----

func.func @rowwise_result_dim(%t: tensor<8x12xi8>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op result dimension 1 has size 12, but the operands give 16}}
  %0 = gather.embedding_bag %t[%i] {rowwise_bits = 4 : i64} : (tensor<8x12xi8>, tensor<2x3xi64>) -> tensor<2x12xf32>
  return
}

// -----

func.func @rowwise_result_type(%t: tensor<8x12xi8>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op result element type 'f16' must be f32 for a row-wise quantized table}}
  %0 = gather.embedding_bag %t[%i] {rowwise_bits = 8 : i64} : (tensor<8x12xi8>, tensor<2x3xi64>) -> tensor<2x4xf16>
  return
}

// -----

func.func @rowwise_sample_weights(%t: tensor<8x12xi8>, %i: tensor<2x3xi64>, %w: tensor<2x3xf16>) {
  // expected-error @+1 {{'gather.embedding_bag' op per_sample_weights must be f32 with a row-wise quantized table}}
  %0 = gather.embedding_bag %t[%i] per_sample_weights(%w) {reduction = #gather<reduction sum>, rowwise_bits = 8 : i64} : (tensor<8x12xi8>, tensor<2x3xi64>, tensor<2x3xf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @scales_without_bits(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x2xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op a block-quantized table takes scales, block_bits and block_size together}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @zero_points_without_scales(%t: tensor<8x16xf32>, %i: tensor<2x1xi64>, %z: tensor<8x1xi8>) {
  // expected-error @+1 {{'gather.embedding_bag' op zero_points needs scales}}
  %0 = gather.embedding_bag %t[%i] zero_points(%z) : (tensor<8x16xf32>, tensor<2x1xi64>, tensor<8x1xi8>) -> tensor<2x16xf32>
  return
}

// -----

func.func @two_layouts(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x2xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op rowwise_bits and scales name two layouts of the table: give one}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {rowwise_bits = 8 : i64, block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @block_bits(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x2xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op block_bits must be 8, 4 or 2, not 3}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {block_bits = 3 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @block_size(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x2xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op block_size must be a power of two >= 16, not 24}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {block_bits = 4 : i64, block_size = 24 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @block_float_table(%t: tensor<8x16xf32>, %i: tensor<2x1xi64>, %s: tensor<8x2xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op a block-quantized table (scales) holds bytes: weight must have element type i8}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xf32>, tensor<2x1xi64>, tensor<8x2xf32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @scales_rows(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<7x2xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op scales has 7 rows, but the table has 8}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<7x2xf32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @scales_blocks(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x3xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op scales has 3 columns, but rows of 32 values have 2 blocks of 16}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x3xf32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @zero_point_bytes(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x2xf32>, %z: tensor<8x2xi8>) {
  // expected-error @+1 {{'gather.embedding_bag' op zero_points has 2 columns, but 2 blocks of 4-bit zero points need 1}}
  %0 = gather.embedding_bag %t[%i] scales(%s) zero_points(%z) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf32>, tensor<8x2xi8>) -> tensor<2x32xf32>
  return
}

// -----

func.func @block_result_type(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x2xf16>) {
  // expected-error @+1 {{'gather.embedding_bag' op result element type 'f32' must be the scales' 'f16'}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf16>) -> tensor<2x32xf32>
  return
}

// -----

func.func @scales_rank(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'gather.embedding_bag' op scales must be 2-D [num, blocks]}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<16xf32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @zero_points_rank(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x2xf32>, %z: tensor<8xi8>) {
  // expected-error @+1 {{'gather.embedding_bag' op zero_points must be 2-D [num, bytes]}}
  %0 = gather.embedding_bag %t[%i] scales(%s) zero_points(%z) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf32>, tensor<8xi8>) -> tensor<2x32xf32>
  return
}

// -----

func.func @zero_points_rows(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %s: tensor<8x2xf32>, %z: tensor<9x1xi8>) {
  // expected-error @+1 {{'gather.embedding_bag' op zero_points has 9 rows, but the table has 8}}
  %0 = gather.embedding_bag %t[%i] scales(%s) zero_points(%z) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf32>, tensor<9x1xi8>) -> tensor<2x32xf32>
  return
}

// -----

func.func @block_sample_weights(%t: tensor<8x16xi8>, %i: tensor<2x1xi64>, %w: tensor<2x1xf32>, %s: tensor<8x2xf16>) {
  // expected-error @+1 {{'gather.embedding_bag' op per_sample_weights must have the element type of scales}}
  %0 = gather.embedding_bag %t[%i] per_sample_weights(%w) scales(%s) {reduction = #gather<reduction sum>, block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<2x1xf32>, tensor<8x2xf16>) -> tensor<2x32xf16>
  return
}

// -----

// A static row of bytes whose values (two a byte) an int64 cannot count
// (a fuzzer finding: the count overflowed).
func.func @block_row_values_overflow(%t: tensor<100x9223372036854775807xi8>, %i: tensor<?x1xi64>, %s: tensor<100x32xf16>) {
  // expected-error @+1 {{'gather.embedding_bag' op rows of 9223372036854775807 bytes hold more values than a dimension can count}}
  %0 = gather.embedding_bag %t[%i] scales(%s) {reduction = #gather<reduction sum>, block_bits = 4 : i64, block_size = 128 : i64} : (tensor<100x9223372036854775807xi8>, tensor<?x1xi64>, tensor<100x32xf16>) -> tensor<?x?xf16>
  return
}

// -----

func.func @rowwise_row_values_overflow(%t: tensor<8x9223372036854775807xi8>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'gather.embedding_bag' op rows of 9223372036854775807 bytes hold more values than a dimension can count}}
  %0 = gather.embedding_bag %t[%i] {rowwise_bits = 4 : i64} : (tensor<8x9223372036854775807xi8>, tensor<2x3xi64>) -> tensor<2x?xf32>
  return
}
