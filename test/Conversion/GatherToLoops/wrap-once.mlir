// RUN: gather-opt %s --convert-gather-to-loops --canonicalize --cse --split-input-file | FileCheck %s

/// A wrap gather along an axis after the first wraps its indices once,
/// into a stack buffer in an alloca scope, when there are at most 16384 of
/// them; its rows then read the buffer, with no remainder left in them.
/// More indices take the rows' own wrap.
// CHECK-LABEL: func.func @shared_by_rows
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %[[COUNT:.*]], %c16384 : index
// CHECK: scf.if %[[FEW]] {
// CHECK:   memref.alloca_scope {
// CHECK:     %[[WRAPPED:.*]] = memref.alloca(%[[COUNT]]) : memref<?xi64>
// CHECK:     affine.for
// CHECK:       arith.remsi
// CHECK:       affine.store %{{.*}}, %[[WRAPPED]]
// CHECK-NOT:   arith.remsi
// CHECK:     vector.load %[[WRAPPED]]
// CHECK-NOT:   arith.remsi
// CHECK:   }
// CHECK: } else {
// CHECK:   arith.remsi
func.func @shared_by_rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

/// Along the first axis each index is read once: nothing to share.
// CHECK-LABEL: func.func @first_axis
// CHECK-NOT: memref.alloca_scope
// CHECK: return
func.func @first_axis(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

/// One data row before the axis (static): nothing to share either.
// CHECK-LABEL: func.func @one_row
// CHECK-NOT: memref.alloca_scope
// CHECK: return
func.func @one_row(%d: tensor<1x?xf32>, %i: tensor<?xi64>) -> tensor<1x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<1x?xf32>, tensor<?xi64>) -> tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}
