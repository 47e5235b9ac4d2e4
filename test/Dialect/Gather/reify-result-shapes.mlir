// RUN: gather-opt %s --resolve-ranked-shaped-type-result-dims --split-input-file | FileCheck %s

// tensor.dim of a gather result is answered from the operands through
// ReifyRankedShapedTypeOpInterface.

// CHECK-LABEL: func.func @gather_dims
// CHECK-SAME: (%[[D:.*]]: tensor<?x4x?xf32>, %[[I:.*]]: tensor<3x?xi32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[D0:.*]] = tensor.dim %[[D]], %[[C0]]
// CHECK-DAG: %[[I1:.*]] = tensor.dim %[[I]], %[[C1]]
// CHECK-DAG: %[[D2:.*]] = tensor.dim %[[D]], %[[C2]]
// CHECK: return %[[D0]], %[[C3]], %[[I1]], %[[D2]]
func.func @gather_dims(%d: tensor<?x4x?xf32>, %i: tensor<3x?xi32>) -> (index, index, index, index) {
  %g = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x4x?xf32>, tensor<3x?xi32>) -> tensor<?x3x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = tensor.dim %g, %c0 : tensor<?x3x?x?xf32>
  %1 = tensor.dim %g, %c1 : tensor<?x3x?x?xf32>
  %2 = tensor.dim %g, %c2 : tensor<?x3x?x?xf32>
  %3 = tensor.dim %g, %c3 : tensor<?x3x?x?xf32>
  return %0, %1, %2, %3 : index, index, index, index
}

// -----

// CHECK-LABEL: func.func @gather_elements_dims
// CHECK-SAME: (%[[D:.*]]: tensor<?x?xf32>, %[[I:.*]]: tensor<?x?xi64>)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[I1:.*]] = tensor.dim %[[I]], %[[C1]]
// CHECK: return %[[I1]]
func.func @gather_elements_dims(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> index {
  %g = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %c1 = arith.constant 1 : index
  %0 = tensor.dim %g, %c1 : tensor<?x?xf32>
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @gather_nd_dims
// CHECK-SAME: (%[[D:.*]]: tensor<?x?x?xf32>, %[[I:.*]]: tensor<?x1xi64>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[D0:.*]] = tensor.dim %[[D]], %[[C0]]
// CHECK-DAG: %[[D2:.*]] = tensor.dim %[[D]], %[[C2]]
// CHECK: return %[[D0]], %[[D2]]
func.func @gather_nd_dims(%d: tensor<?x?x?xf32>, %i: tensor<?x1xi64>) -> (index, index) {
  %g = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<?x?x?xf32>, tensor<?x1xi64>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = tensor.dim %g, %c0 : tensor<?x?xf32>
  %1 = tensor.dim %g, %c1 : tensor<?x?xf32>
  return %0, %1 : index, index
}
