// RUN: gather-opt %s --convert-gather-to-linalg -split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg -split-input-file | %upstream_to_llvm -split-input-file | FileCheck %s --check-prefix=LLVM

/// The output compiles with stock mlir-opt and upstream passes alone.
// LLVM: llvm.func
// LLVM-NOT: {{(gather|linalg|tensor|scf|cf)\.}}

/// Each component of a tuple is read at its own position of the last
/// indices dim and resolved against its own data dim.
// CHECK-LABEL: func @gather_nd_fill
//  CHECK-SAME: (%[[DATA:.*]]: tensor<3x4x5xf32>, %[[IDX:.*]]: tensor<6x2xi32>)
//   CHECK-DAG: %[[S0:.*]] = arith.constant 3 : i64
//   CHECK-DAG: %[[S1:.*]] = arith.constant 4 : i64
//       CHECK: tensor.empty() : tensor<6x5xf32>
//       CHECK: linalg.generic
//       CHECK:   %[[P0:.*]] = linalg.index 0
//       CHECK:   %[[P1:.*]] = linalg.index 1
//       CHECK:   %[[C0:.*]] = arith.constant 0 : index
//       CHECK:   tensor.extract %[[IDX]][%[[P0]], %[[C0]]]
//       CHECK:   %[[OK0:.*]] = arith.cmpi ult, %{{.*}}, %[[S0]]
//       CHECK:   %[[J0:.*]] = arith.index_cast
//       CHECK:   %[[C1:.*]] = arith.constant 1 : index
//       CHECK:   tensor.extract %[[IDX]][%[[P0]], %[[C1]]]
//       CHECK:   %[[OK1:.*]] = arith.cmpi ult, %{{.*}}, %[[S1]]
//       CHECK:   %[[J1:.*]] = arith.index_cast
//       CHECK:   %[[OK:.*]] = arith.andi %[[OK0]], %[[OK1]]
//       CHECK:   scf.if %[[OK]]
//       CHECK:     tensor.extract %[[DATA]][%[[J0]], %[[J1]], %[[P1]]]
func.func @gather_nd_fill(%d: tensor<3x4x5xf32>, %i: tensor<6x2xi32>) -> tensor<6x5xf32> {
  %r = gather.gather_nd %d[%i] {mode = #gather<mode fill>} : (tensor<3x4x5xf32>, tensor<6x2xi32>) -> tensor<6x5xf32>
  return %r : tensor<6x5xf32>
}

// -----

/// check: the component's position in its tuple picks the dimension (and
/// the message) its value is checked against.
// CHECK-LABEL: func @gather_nd_check
//       CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<6x2xi64>)
//       CHECK:   %[[C:.*]] = linalg.index 1 : index
//       CHECK:   %[[NOT0:.*]] = arith.cmpi ne, %[[C]], %c0
//       CHECK:   %[[OK0:.*]] = arith.ori %[[NOT0]]
//       CHECK:   cf.assert %[[OK0]], "gather.gather_nd: index out of range [-3, 2] for data dimension 0 of size 3"
//       CHECK:   %[[NOT1:.*]] = arith.cmpi ne, %[[C]], %c1
//       CHECK:   %[[OK1:.*]] = arith.ori %[[NOT1]]
//       CHECK:   cf.assert %[[OK1]], "gather.gather_nd: index out of range [-4, 3] for data dimension 1 of size 4"
func.func @gather_nd_check(%d: tensor<3x4x5xf32>, %i: tensor<6x2xi64>) -> tensor<6x5xf32> {
  %r = gather.gather_nd %d[%i] : (tensor<3x4x5xf32>, tensor<6x2xi64>) -> tensor<6x5xf32>
  return %r : tensor<6x5xf32>
}

// -----

/// batch_dims 1: result dim 0 walks the batch of both operands; the tuple
/// selects along data dim 1.
// CHECK-LABEL: func @gather_nd_batch_dims
//  CHECK-SAME: (%[[DATA:.*]]: tensor<?x4x5xf32>, %[[IDX:.*]]: tensor<?x3x1xi64>)
//       CHECK: cf.assert %{{.*}}, "gather.gather_nd: batch dimension 0 has different sizes in data and indices"
//       CHECK: linalg.generic
//       CHECK:   %[[P0:.*]] = linalg.index 0
//       CHECK:   %[[P1:.*]] = linalg.index 1
//       CHECK:   %[[P2:.*]] = linalg.index 2
//       CHECK:   tensor.extract %[[IDX]][%[[P0]], %[[P1]], %{{.*}}]
//       CHECK:   %[[J:.*]] = arith.index_cast
//       CHECK:   tensor.extract %[[DATA]][%[[P0]], %[[J]], %[[P2]]]
func.func @gather_nd_batch_dims(%d: tensor<?x4x5xf32>, %i: tensor<?x3x1xi64>) -> tensor<?x3x5xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode wrap>} : (tensor<?x4x5xf32>, tensor<?x3x1xi64>) -> tensor<?x3x5xf32>
  return %r : tensor<?x3x5xf32>
}
