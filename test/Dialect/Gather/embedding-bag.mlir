// RUN: gather-opt %s --split-input-file | FileCheck %s
// RUN: gather-opt %s --split-input-file --mlir-print-op-generic | gather-opt --split-input-file | FileCheck %s
// RUN: gather-opt %s --split-input-file --gather-shape-inference | FileCheck %s --check-prefix=INFER
// RUN: gather-opt %s --split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD

// The textual form of gather.embedding_bag (include/gather/Dialect/Gather/IR/
// EmbeddingBagOps.td), printed back with defaults elided; shape inference
// gives [bags, dim].

// CHECK-LABEL: func.func @forms
// CHECK: gather.embedding_bag %{{.*}}[%{{.*}}] offsets(%{{.*}}) per_sample_weights(%{{.*}}) {reduction = #gather<reduction sum>} : (tensor<100x8xf32>, tensor<?xi64>, tensor<4xi64>, tensor<?xf32>) -> tensor<4x8xf32>
// CHECK: gather.embedding_bag %{{.*}}[%{{.*}}] offsets(%{{.*}}) {include_last_offset, mode = #gather<mode fill>, padding_idx = -1 : i64} : (tensor<100x8xf16>, tensor<?xi32>, tensor<5xi32>) -> tensor<4x8xf16>
// CHECK: gather.embedding_bag %{{.*}}[%{{.*}}] {reduction = #gather<reduction max>} : (tensor<100x8xbf16>, tensor<3x7xindex>) -> tensor<3x8xbf16>
func.func @forms(%t: tensor<100x8xf32>, %h: tensor<100x8xf16>, %bf: tensor<100x8xbf16>,
                 %i: tensor<?xi64>, %o: tensor<4xi64>, %w: tensor<?xf32>,
                 %i32: tensor<?xi32>, %o5: tensor<5xi32>, %b: tensor<3x7xindex>) {
  %0 = gather.embedding_bag %t[%i] offsets(%o) per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<100x8xf32>, tensor<?xi64>, tensor<4xi64>, tensor<?xf32>) -> tensor<4x8xf32>
  %1 = gather.embedding_bag %h[%i32] offsets(%o5) {reduction = #gather<reduction mean>, padding_idx = -1 : i64, include_last_offset, mode = #gather<mode fill>} : (tensor<100x8xf16>, tensor<?xi32>, tensor<5xi32>) -> tensor<4x8xf16>
  %2 = gather.embedding_bag %bf[%b] {reduction = #gather<reduction max>} : (tensor<100x8xbf16>, tensor<3x7xindex>) -> tensor<3x8xbf16>
  return
}

// -----

// INFER-LABEL: func.func @infer
// INFER: gather.embedding_bag {{.*}} -> tensor<4x8xf32>
// INFER: gather.embedding_bag {{.*}} -> tensor<6x8xf32>
func.func @infer(%t: tensor<100x8xf32>, %i: tensor<?xi64>, %o: tensor<5xi64>, %b: tensor<6x2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = gather.embedding_bag %t[%i] offsets(%o) {include_last_offset} : (tensor<100x8xf32>, tensor<?xi64>, tensor<5xi64>) -> tensor<?x?xf32>
  %1 = gather.embedding_bag %t[%b] : (tensor<100x8xf32>, tensor<6x2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// Row-wise quantized tables: rows of 8-bit values and an f32 scale and bias
// (72 bytes: 64 values), of 4-bit values and an f16 scale and bias (36
// bytes: 64 values); the result is f32.
// CHECK-LABEL: func.func @rowwise
// CHECK: gather.embedding_bag %{{.*}}[%{{.*}}] offsets(%{{.*}}) per_sample_weights(%{{.*}}) {reduction = #gather<reduction sum>, rowwise_bits = 8 : i64} : (tensor<100x72xi8>, tensor<?xi64>, tensor<4xi64>, tensor<?xf32>) -> tensor<?x?xf32>
// CHECK: gather.embedding_bag %{{.*}}[%{{.*}}] {rowwise_bits = 4 : i64} : (tensor<100x36xi8>, tensor<3x7xi32>) -> tensor<3x64xf32>
// INFER-LABEL: func.func @rowwise
// INFER: -> tensor<4x64xf32>
// INFER: -> tensor<3x64xf32>
// INFER: -> tensor<3x?xf32>
func.func @rowwise(%t8: tensor<100x72xi8>, %t4: tensor<100x36xi8>, %td: tensor<100x?xi8>,
                   %i: tensor<?xi64>, %o: tensor<4xi64>, %w: tensor<?xf32>, %b: tensor<3x7xi32>)
    -> (tensor<?x?xf32>, tensor<3x64xf32>, tensor<?x?xf32>) {
  %0 = gather.embedding_bag %t8[%i] offsets(%o) per_sample_weights(%w) {reduction = #gather<reduction sum>, rowwise_bits = 8 : i64} : (tensor<100x72xi8>, tensor<?xi64>, tensor<4xi64>, tensor<?xf32>) -> tensor<?x?xf32>
  %1 = gather.embedding_bag %t4[%b] {rowwise_bits = 4 : i64} : (tensor<100x36xi8>, tensor<3x7xi32>) -> tensor<3x64xf32>
  %2 = gather.embedding_bag %td[%b] {rowwise_bits = 4 : i64} : (tensor<100x?xi8>, tensor<3x7xi32>) -> tensor<?x?xf32>
  return %0, %1, %2 : tensor<?x?xf32>, tensor<3x64xf32>, tensor<?x?xf32>
}

// -----

// Folds: bags that hold no id are zeros when every size is static; nothing
// folds where a rule is left for run time.
// FOLD-LABEL: func.func @folds
// FOLD-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<0x8xf32>
// FOLD-DAG: %[[E:.*]] = arith.constant dense<0.000000e+00> : tensor<3x64xf32>
// FOLD: %[[L:.*]] = gather.embedding_bag {{.*}} per_sample_weights
// FOLD: %[[D:.*]] = gather.embedding_bag {{.*}} : (tensor<100x?xf32>, tensor<3x0xi64>) -> tensor<3x8xf32>
// FOLD: return %[[Z]], %[[E]], %[[L]], %[[D]]
func.func @folds(%t: tensor<100x8xf32>, %q: tensor<100x72xi8>, %td: tensor<100x?xf32>,
                 %i: tensor<?xi64>, %none: tensor<0xi64>, %empty: tensor<3x0xi64>,
                 %w: tensor<?xf32>)
    -> (tensor<0x8xf32>, tensor<3x64xf32>, tensor<0x8xf32>, tensor<3x8xf32>) {
  %0 = gather.embedding_bag %t[%i] offsets(%none) : (tensor<100x8xf32>, tensor<?xi64>, tensor<0xi64>) -> tensor<0x8xf32>
  %1 = gather.embedding_bag %q[%empty] {reduction = #gather<reduction max>, rowwise_bits = 8 : i64} : (tensor<100x72xi8>, tensor<3x0xi64>) -> tensor<3x64xf32>
  // per_sample_weights' size is checked against the ids' when the op runs.
  %2 = gather.embedding_bag %t[%i] offsets(%none) per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<100x8xf32>, tensor<?xi64>, tensor<0xi64>, tensor<?xf32>) -> tensor<0x8xf32>
  // The table's row size is checked against the result's when the op runs.
  %3 = gather.embedding_bag %td[%empty] : (tensor<100x?xf32>, tensor<3x0xi64>) -> tensor<3x8xf32>
  return %0, %1, %2, %3 : tensor<0x8xf32>, tensor<3x64xf32>, tensor<0x8xf32>, tensor<3x8xf32>
}

// -----

// Block-quantized tables: 4-bit rows of 4096 values (2048 bytes) in blocks
// of 128 (32 scales, 16 bytes of zero points); 2-bit rows of 64 values (16
// bytes) in blocks of 16. The result has the scales' element type.
// CHECK-LABEL: func.func @blocks
// CHECK: gather.embedding_bag %{{.*}}[%{{.*}}] scales(%{{.*}}) zero_points(%{{.*}}) {block_bits = 4 : i64, block_size = 128 : i64, reduction = #gather<reduction sum>} : (tensor<100x2048xi8>, tensor<?x1xi64>, tensor<100x32xf16>, tensor<100x16xi8>) -> tensor<?x?xf16>
// CHECK: gather.embedding_bag %{{.*}}[%{{.*}}] offsets(%{{.*}}) scales(%{{.*}}) {block_bits = 2 : i64, block_size = 16 : i64} : (tensor<100x16xi8>, tensor<?xi64>, tensor<4xi64>, tensor<100x4xf32>) -> tensor<4x64xf32>
// INFER-LABEL: func.func @blocks
// INFER: -> tensor<?x4096xf16>
// INFER: -> tensor<4x64xf32>
func.func @blocks(%t4: tensor<100x2048xi8>, %i: tensor<?x1xi64>, %s4: tensor<100x32xf16>, %z4: tensor<100x16xi8>,
                  %t2: tensor<100x16xi8>, %j: tensor<?xi64>, %o: tensor<4xi64>, %s2: tensor<100x4xf32>)
    -> (tensor<?x?xf16>, tensor<4x64xf32>) {
  %0 = gather.embedding_bag %t4[%i] scales(%s4) zero_points(%z4) {reduction = #gather<reduction sum>, block_bits = 4 : i64, block_size = 128 : i64} : (tensor<100x2048xi8>, tensor<?x1xi64>, tensor<100x32xf16>, tensor<100x16xi8>) -> tensor<?x?xf16>
  %1 = gather.embedding_bag %t2[%j] offsets(%o) scales(%s2) {block_bits = 2 : i64, block_size = 16 : i64} : (tensor<100x16xi8>, tensor<?xi64>, tensor<4xi64>, tensor<100x4xf32>) -> tensor<4x64xf32>
  return %0, %1 : tensor<?x?xf16>, tensor<4x64xf32>
}
