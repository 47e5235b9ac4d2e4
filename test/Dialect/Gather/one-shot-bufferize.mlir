// RUN: gather-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --canonicalize --cse --split-input-file | FileCheck %s

// The gather ops take part in One-Shot Bufferize: operands are read in
// place (no copy), the result is a new allocation filled by the loop nest.

// CHECK-LABEL: func.func @gather_reads_in_place
// CHECK-SAME: (%[[D:.*]]: memref<4x16xf32>, %[[I:.*]]: memref<3xi32>) -> memref<3x16xf32>
// CHECK-NOT: memref.copy
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}}: memref<3x16xf32>
// CHECK: affine.load %[[I]]
// CHECK: vector.load %[[D]]
// CHECK: vector.store %{{.*}}, %[[OUT]]
// CHECK-NOT: memref.copy
// CHECK: return %[[OUT]]
func.func @gather_reads_in_place(%d: tensor<4x16xf32>, %i: tensor<3xi32>) -> tensor<3x16xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<4x16xf32>, tensor<3xi32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

/// Chained gathers: the first result feeds the second directly.
// CHECK-LABEL: func.func @gather_chain
// CHECK-NOT: memref.copy
// CHECK: %[[A:.*]] = memref.alloc
// CHECK: %[[B:.*]] = memref.alloc
// CHECK: vector.gather %[[A]]
// CHECK-NOT: memref.copy
// CHECK: return %[[B]]
func.func @gather_chain(%d: tensor<4x4xf32>, %i: tensor<2xi64>, %j: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  %1 = gather.gather_elements %0[%j] {axis = 0 : i64, mode = #gather<mode clamp>} : (tensor<2x4xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}

// -----

/// A scatter writes into dest's buffer in place: its loops load and store
/// the buffer itself, no allocation, no copy.
// CHECK-LABEL: func.func @scatter_in_place
// CHECK-SAME: (%[[D:.*]]: memref<4x3xf32>, %[[I:.*]]: memref<5xi64>, %[[U:.*]]: memref<5x3xf32>) -> memref<4x3xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: %[[X:.*]] = memref.load %[[U]]
// CHECK: %[[Y:.*]] = memref.load %[[D]]
// CHECK: %[[S:.*]] = arith.addf %[[Y]], %[[X]] : f32
// CHECK: memref.store %[[S]], %[[D]]
// CHECK: return %[[D]]
func.func @scatter_in_place(%d: tensor<4x3xf32>, %i: tensor<5xi64>, %u: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %r = gather.scatter %d[%i], %u {mode = #gather<mode unchecked>, reduction = #gather<combine add>} : (tensor<4x3xf32>, tensor<5xi64>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

/// dest is read after the scatter: the scatter writes into a copy.
// CHECK-LABEL: func.func @scatter_copies_dest_read_later
// CHECK-SAME: (%[[D:.*]]: memref<4x3xf32>,
// CHECK: %[[C:.*]] = memref.alloc() {{.*}}: memref<4x3xf32>
// CHECK: memref.copy %[[D]], %[[C]]
// CHECK: memref.store %{{.*}}, %[[C]]
// CHECK: return %[[C]], %[[D]]
func.func @scatter_copies_dest_read_later(%d: tensor<4x3xf32>, %i: tensor<5xi64>, %u: tensor<5x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %r = gather.scatter %d[%i], %u {mode = #gather<mode unchecked>, reduction = #gather<combine add>} : (tensor<4x3xf32>, tensor<5xi64>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %r, %d : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

/// Rows of unknown length may be copied by memcpy: bufferizing loads the LLVM
/// dialect for it, as no pass before it need have.
// CHECK-LABEL: func.func @gather_dynamic_rows
// CHECK: scf.if
// CHECK: llvm.inttoptr
// CHECK: "llvm.intr.memcpy"
// CHECK: } else {
// CHECK: vector.load
func.func @gather_dynamic_rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
