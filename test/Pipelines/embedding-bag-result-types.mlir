// RUN: gather-opt %s --split-input-file --convert-gather-to-linalg -o /dev/null
// RUN: gather-opt %s --split-input-file --convert-embedding-bag-to-scf -o /dev/null
// RUN: gather-opt %s --split-input-file --convert-gather-to-loops -o /dev/null
// RUN: gather-opt %s --split-input-file --gather-to-llvm -o /dev/null
// RUN: gather-opt %s --split-input-file --gather-to-llvm="parallel=true" -o /dev/null

// Declared results less static than the operands give (the lowering's
// branches once yielded the declared type's dims against a static row: a
// gather-fuzz finding in the seed replay) and more static (checked when the
// op runs), every pass that lowers embedding bags.

func.func @less_static(%t: tensor<100x8xf32>, %i: tensor<?xi64>, %o: tensor<5xi64>, %b: tensor<6x2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = gather.embedding_bag %t[%i] offsets(%o) {include_last_offset} : (tensor<100x8xf32>, tensor<?xi64>, tensor<5xi64>) -> tensor<?x?xf32>
  %1 = gather.embedding_bag %t[%b] : (tensor<100x8xf32>, tensor<6x2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

func.func @more_static(%t: tensor<?x?xf16>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<4x8xf16> {
  %0 = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction max>, mode = #gather<mode wrap>} : (tensor<?x?xf16>, tensor<?xi32>, tensor<?xi32>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

func.func @empty_rows(%t: tensor<0x0xf64>, %b: tensor<0x3xindex>, %w: tensor<0x3xf64>) -> tensor<0x0xf64> {
  %0 = gather.embedding_bag %t[%b] per_sample_weights(%w) {reduction = #gather<reduction sum>, mode = #gather<mode fill>} : (tensor<0x0xf64>, tensor<0x3xindex>, tensor<0x3xf64>) -> tensor<0x0xf64>
  return %0 : tensor<0x0xf64>
}

// -----

func.func @empty_row(%t: tensor<5x0xf32>, %i: tensor<?xi64>, %o: tensor<3xi64>) -> tensor<3x0xf32> {
  %0 = gather.embedding_bag %t[%i] offsets(%o) {padding_idx = -1 : i64} : (tensor<5x0xf32>, tensor<?xi64>, tensor<3xi64>) -> tensor<3x0xf32>
  return %0 : tensor<3x0xf32>
}
