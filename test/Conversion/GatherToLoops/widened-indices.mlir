// RUN: gather-opt %s --convert-elementwise-to-linalg --convert-gather-to-loops --canonicalize --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops --canonicalize --split-input-file | FileCheck %s --check-prefix=ARITH

/// Indices widened from narrower integers (an arith cast on tensors, or the
/// linalg.generic convert-elementwise-to-linalg makes of it): the kernel
/// reads the narrow buffer and extends each index as it reads it, so the
/// wide indices are never written; the widening is erased.
// CHECK-LABEL: func.func @unsigned_widening
// CHECK-NOT: linalg.generic
// CHECK: bufferization.to_buffer %{{.*}} : tensor<4x16xi8> to memref<4x16xi8>
// CHECK-NOT: arith.extsi
// CHECK: arith.extui %{{.*}} : vector<{{[0-9]+}}xi8> to vector<{{[0-9]+}}xi64>
// CHECK-NOT: arith.extsi
// CHECK: return
// ARITH-LABEL: func.func @unsigned_widening
// ARITH-NOT: arith.extui %{{.*}} : tensor
// ARITH: memref<4x16xi8>
// ARITH: arith.extui %{{.*}} : vector<{{[0-9]+}}xi8> to vector<{{[0-9]+}}xi64>
func.func @unsigned_widening(%d: tensor<4x9xf32>, %i: tensor<4x16xi8>) -> tensor<4x16xf32> {
  %w = arith.extui %i : tensor<4x16xi8> to tensor<4x16xi64>
  %0 = gather.gather_elements %d[%w] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<4x9xf32>, tensor<4x16xi64>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

/// A signed widening reads the narrow buffer too (sign-extended, as the
/// ops read every index), and so does index_castui to `index`.
// CHECK-LABEL: func.func @signed_widening
// CHECK: memref<?xi16>
// CHECK: arith.extsi %{{.*}} : i16 to i64
// CHECK-LABEL: func.func @index_castui
// CHECK: memref<?x1xi32>
// CHECK: arith.extui %{{.*}} : {{.*}}i32{{.*}} to {{.*}}i64
func.func @signed_widening(%d: tensor<?x8xf32>, %i: tensor<?xi16>) -> tensor<?x8xf32> {
  %w = arith.extsi %i : tensor<?xi16> to tensor<?xi32>
  %0 = gather.gather %d[%w] {axis = 0 : i64} : (tensor<?x8xf32>, tensor<?xi32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
func.func @index_castui(%d: tensor<?x?xf16>, %i: tensor<?x1xi32>) -> tensor<?x?xf16> {
  %w = arith.index_castui %i : tensor<?x1xi32> to tensor<?x1xindex>
  %0 = gather.gather_nd %d[%w] : (tensor<?x?xf16>, tensor<?x1xindex>) -> tensor<?x?xf16>
  return %0 : tensor<?x?xf16>
}

// -----

/// A widening that another op reads stays for it; the gather still reads
/// the narrow buffer.
// CHECK-LABEL: func.func @widening_with_another_use
// CHECK: linalg.generic
// CHECK: arith.extui %{{.*}} : i32 to i64
// CHECK: memref<?xi32>
// CHECK: arith.extui %{{.*}} : {{.*}}i32{{.*}} to {{.*}}i64
func.func @widening_with_another_use(%d: tensor<?xf32>, %i: tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi64>) {
  %w = arith.extui %i : tensor<?xi32> to tensor<?xi64>
  %0 = gather.gather %d[%w] {mode = #gather<mode clamp>} : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %0, %w : tensor<?xf32>, tensor<?xi64>
}

// -----

/// Narrowing casts, and casts from `index`, are not widenings: the kernel
/// reads the op's own indices.
// CHECK-LABEL: func.func @negative_narrowing
// CHECK: arith.trunci
// CHECK: memref<?xi32>
// CHECK: arith.extsi
func.func @negative_narrowing(%d: tensor<?xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
  %w = arith.trunci %i : tensor<?xi64> to tensor<?xi32>
  %0 = gather.gather %d[%w] {mode = #gather<mode clamp>} : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

/// Widenings of integers narrower than a byte stay: the kernel reads whole
/// elements of 8 to 64 bits.
// CHECK-LABEL: func.func @negative_sub_byte
// CHECK: arith.extui %{{.*}} : i1 to i64
// CHECK: memref<?xi64>
func.func @negative_sub_byte(%d: tensor<?xf32>, %i: tensor<?xi1>) -> tensor<?xf32> {
  %w = arith.extui %i : tensor<?xi1> to tensor<?xi64>
  %0 = gather.gather %d[%w] {mode = #gather<mode clamp>} : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
