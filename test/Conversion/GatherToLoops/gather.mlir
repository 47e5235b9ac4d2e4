// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=vector" --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-loops="vectorize=false" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SCALAR

/// check mode: a validation pass over every index reports the first bad one
/// through the runtime hook; the gather runs only if none was bad. Rows move
/// as whole vectors.
// CHECK-LABEL: func.func private @gather_mlir_index_error(i64, i64, i64, i64)
// CHECK-LABEL: func.func @gather_check_rows
// CHECK-SAME: (%[[D:.*]]: tensor<4x16xf32>, %[[I:.*]]: tensor<3xi32>)
// CHECK-DAG: %[[DB:.*]] = bufferization.to_buffer %[[D]] read_only
// CHECK-DAG: %[[IB:.*]] = bufferization.to_buffer %[[I]] read_only
// CHECK-DAG: %[[OUT:.*]] = memref.alloc() : memref<3x16xf32>
// CHECK-DAG: %[[REPORT:.*]] = memref.alloca() : memref<4xi64>
/// Indices are validated four vectors at a time, each -s <= i < s tested
/// as one add and one unsigned compare; only a chunk with a bad index is
/// rescanned one by one, to report the first.
// CHECK: %[[MASK:.*]] = vector.constant_mask [3] : vector<32xi1>
// CHECK: %[[IV:.*]] = vector.maskedload %[[IB]][%{{.*}}], %[[MASK]]
// CHECK: %[[WIDE:.*]] = arith.extsi %[[IV]] : vector<32xi32> to vector<32xi64>
// CHECK: %[[SHIFTED:.*]] = arith.addi %[[WIDE]], %{{.*}} : vector<32xi64>
// CHECK: arith.cmpi uge, %[[SHIFTED]], %{{.*}} : vector<32xi64>
// CHECK: %[[ANY:.*]] = vector.reduction <or>
// CHECK: scf.if %[[ANY]] {
// CHECK:   affine.for %{{.*}} = 0 to 3 {
// CHECK:     arith.cmpi uge
// CHECK: %[[FAILED:.*]] = memref.load %[[REPORT]]
// CHECK: scf.if
// CHECK:   func.call @gather_mlir_index_error
// CHECK: scf.if
// CHECK:   affine.for %[[J:.*]] = 0 to 3 {
// CHECK:     affine.load %[[IB]][%[[J]]]
// CHECK:     %[[ROW:.*]] = arith.index_cast
// CHECK:     affine.for %[[K:.*]] = 0 to 16 step 8 {
// CHECK:       %[[VEC:.*]] = vector.load %[[DB]][%[[ROW]], %[[K]]] : memref<4x16xf32>, vector<8xf32>
// CHECK:       vector.store %[[VEC]], %[[OUT]][%[[J]], %[[K]]] : memref<3x16xf32>, vector<8xf32>
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
// SCALAR-LABEL: func.func @gather_check_rows
// SCALAR-NOT: vector.
// SCALAR: memref.load
// SCALAR-NOT: vector.
// SCALAR: return
func.func @gather_check_rows(%d: tensor<4x16xf32>, %i: tensor<3xi32>) -> tensor<3x16xf32> {
  %0 = gather.gather %d[%i] : (tensor<4x16xf32>, tensor<3xi32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

/// fill: no validation; each row is copied or zeroed under one scf.if.
// CHECK-LABEL: func.func @gather_fill_rows
// CHECK-NOT: gather_mlir_index_error
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: affine.for
// CHECK:   %[[VALID:.*]] = arith.cmpi ult
// CHECK:   scf.if %[[VALID]] {
// CHECK:     vector.load
// CHECK:     vector.store
// CHECK:   } else {
// CHECK:     vector.store %[[ZERO]]
func.func @gather_fill_rows(%d: tensor<4x16xf32>, %i: tensor<3xi32>) -> tensor<3x16xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<4x16xf32>, tensor<3xi32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

/// A static row gets vectors no longer than itself: rows of 6 are one
/// vector<4xi32> and a masked pair.
// CHECK-LABEL: func.func @gather_batch_dims_1_axis_2_short_rows
// CHECK: affine.for %{{.*}} = 0 to 2 {
// CHECK:   affine.for %{{.*}} = 0 to 1 {
// CHECK:     affine.for %{{.*}} = 0 to 3 {
// CHECK:       vector.load {{.*}} : memref<2x1x5x6xi32>, vector<4xi32>
// CHECK:       %[[MASK:.*]] = vector.constant_mask [2] : vector<4xi1>
// CHECK:       %[[V:.*]] = vector.maskedload %{{.*}}, %[[MASK]]
// CHECK:       vector.maskedstore %{{.*}}, %[[MASK]], %[[V]]
func.func @gather_batch_dims_1_axis_2_short_rows(%d: tensor<2x1x5x6xi32>, %i: tensor<2x3xi32>) -> tensor<2x1x3x6xi32> {
  %0 = gather.gather %d[%i] {axis = 2 : i64, batch_dims = 1 : i64, mode = #gather<mode unchecked>} : (tensor<2x1x5x6xi32>, tensor<2x3xi32>) -> tensor<2x1x3x6xi32>
  return %0 : tensor<2x1x3x6xi32>
}

// -----

/// Dynamic rows: one vector an iteration up to n - n mod 8, then a masked
/// tail.
// CHECK: #[[FULL:.*]] = affine_map<()[s0] -> ((s0 floordiv 8) * 8)>
// CHECK-LABEL: func.func @gather_dynamic_rows
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %c1
// CHECK: affine.for %{{.*}} = 0 to %{{.*}} {
// CHECK:   affine.for %{{.*}} = 0 to #[[FULL]]()[%[[N]]] step 8 {
// CHECK:     vector.load
// CHECK:     vector.store
// CHECK-NOT: vector.load
// CHECK:   }
// CHECK:   scf.if
// CHECK:     vector.maskedload
// CHECK:     vector.maskedstore
func.func @gather_dynamic_rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

/// unchecked: neither validation nor guard; only the normalization.
// CHECK-LABEL: func.func @gather_unchecked_scalar_index
// CHECK-NOT: gather_mlir_index_error
// CHECK-NOT: scf.if
// CHECK: %[[I:.*]] = affine.load %{{.*}}[] : memref<i64>
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]]
// CHECK: arith.select %[[NEG]]
// CHECK: vector.load
func.func @gather_unchecked_scalar_index(%d: tensor<4x8xf32>, %i: tensor<i64>) -> tensor<8xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<4x8xf32>, tensor<i64>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

/// clamp and wrap along a dimension that cannot be empty need no validation.
// CHECK-LABEL: func.func @gather_clamp_static
// CHECK-NOT: memref.alloca
// CHECK: arith.minsi
// CHECK: arith.maxsi
func.func @gather_clamp_static(%d: tensor<4xf32>, %i: tensor<3xi32>) -> tensor<3xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<4xf32>, tensor<3xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

/// wrap is Python's modulo: the remainder is shifted into [0, s).
// CHECK-LABEL: func.func @gather_wrap_dynamic
// CHECK: memref.alloca
/// Only the first index is looked at: any index fails along an empty axis.
// CHECK: affine.for %{{.*}} = 0 to 1 {
// CHECK: func.call @gather_mlir_index_error
// CHECK: %[[REM:.*]] = arith.remsi
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[REM]]
// CHECK: %[[UP:.*]] = arith.addi %[[REM]]
// CHECK: arith.select %[[NEG]], %[[UP]], %[[REM]]
func.func @gather_wrap_dynamic(%d: tensor<?xf32>, %i: tensor<3xi32>) -> tensor<3xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<?xf32>, tensor<3xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

/// i1 and complex data never vectorize (packed bits, structs).
// CHECK-LABEL: func.func @gather_i1_and_complex_stay_scalar
// CHECK-NOT: vector.
// CHECK: complex.constant [0.000000e+00 : f32, 0.000000e+00 : f32]
// CHECK-NOT: vector.
// CHECK: return
func.func @gather_i1_and_complex_stay_scalar(%b: tensor<4x16xi1>, %c: tensor<4x16xcomplex<f32>>, %i: tensor<3xi32>) -> (tensor<3x16xi1>, tensor<3x16xcomplex<f32>>) {
  %0 = gather.gather %b[%i] {mode = #gather<mode unchecked>} : (tensor<4x16xi1>, tensor<3xi32>) -> tensor<3x16xi1>
  %1 = gather.gather %c[%i] {mode = #gather<mode fill>} : (tensor<4x16xcomplex<f32>>, tensor<3xi32>) -> tensor<3x16xcomplex<f32>>
  return %0, %1 : tensor<3x16xi1>, tensor<3x16xcomplex<f32>>
}

// -----

/// Along the last axis, each result row reads one data row at the positions
/// of one index row: vector.gather, with the batch prefix on data and
/// indices alike.
// CHECK-LABEL: func.func @gather_last_axis_vector_gather
// CHECK: affine.for %[[B:.*]] = 0 to 4 {
// CHECK:   affine.for %[[J:.*]] = 0 to 8 step 8 {
// CHECK:     %[[I:.*]] = vector.load %{{.*}}[%[[B]], %[[J]]] : memref<4x9xi64>, vector<8xi64>
// CHECK:     vector.gather %{{.*}}[%[[B]], %{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<4x100xf32>, vector<8xi64>, vector<8xi1>, vector<8xf32> into vector<8xf32>
/// 9 = one full vector and a masked one: its lanes past the row read index
/// 0 and store nothing.
// CHECK:   }
// CHECK:   %[[TAIL:.*]] = vector.constant_mask [1] : vector<8xi1>
// CHECK:   vector.maskedload %{{.*}}[%[[B]], %c8], %[[TAIL]], %{{.*}} : memref<4x9xi64>
// CHECK:   %[[G:.*]] = vector.gather %{{.*}}[%[[B]], %{{.*}}] [%{{.*}}], %[[TAIL]], %{{.*}} : memref<4x100xf32>
// CHECK:   vector.maskedstore %{{.*}}[%[[B]], %c8], %[[TAIL]], %[[G]]
// SCALAR-LABEL: func.func @gather_last_axis_vector_gather
// SCALAR-NOT: vector.
// SCALAR: return
func.func @gather_last_axis_vector_gather(%d: tensor<4x100xf32>, %i: tensor<4x9xi64>) -> tensor<4x9xf32> {
  %0 = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode wrap>} : (tensor<4x100xf32>, tensor<4x9xi64>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

/// Contiguous slices of several dims are one row: 4x3x2 = 24 floats are
/// three full vectors, not twelve rows of two.
// CHECK-LABEL: func.func @gather_collapses_contiguous_slices
// CHECK-DAG: %[[D:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : memref<5x4x3x2xf32> into memref<5x24xf32>
// CHECK-DAG: %[[O:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : memref<3x4x3x2xf32> into memref<3x24xf32>
// CHECK: affine.for %[[I:.*]] = 0 to 3 {
// CHECK:   affine.for %[[J:.*]] = 0 to 24 step 8 {
// CHECK:     %[[V:.*]] = vector.load %[[D]][%{{.*}}, %[[J]]] : memref<5x24xf32>, vector<8xf32>
// CHECK:     vector.store %[[V]], %[[O]][%[[I]], %[[J]]]
func.func @gather_collapses_contiguous_slices(%d: tensor<5x4x3x2xf32>, %i: tensor<3xi64>) -> tensor<3x4x3x2xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<5x4x3x2xf32>, tensor<3xi64>) -> tensor<3x4x3x2xf32>
  return %0 : tensor<3x4x3x2xf32>
}

// -----

/// The lowering lowers what is written: folding a constant gather is
/// --canonicalize's job (execution tests rely on reaching the kernel).
// CHECK-LABEL: func.func @constant_operands_are_lowered_not_folded
// CHECK-NOT: arith.constant dense<[4, 0, 0]>
// CHECK: vector.gather %{{.*}} : memref<5xi32>
// CHECK-NOT: arith.constant dense<[4, 0, 0]>
func.func @constant_operands_are_lowered_not_folded() -> tensor<3xi32> {
  %d = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i = arith.constant dense<[3, 10, -20]> : tensor<3xi64>
  %0 = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
