// RUN: gather-opt %s --convert-gather-to-linalg -split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg -split-input-file | %upstream_to_llvm -split-input-file | FileCheck %s --check-prefix=LLVM

/// The output compiles with stock mlir-opt and upstream passes alone.
// LLVM: llvm.func
// LLVM-NOT: {{(gather|linalg|tensor|scf|cf)\.}}

/// Result positions are index positions; off the axis, data is read at the
/// same position; along it, at the resolved index.
// CHECK-LABEL: func @gather_elements_axis1
//  CHECK-SAME: (%[[DATA:.*]]: tensor<2x3xi32>, %[[IDX:.*]]: tensor<2x2xi64>)
//       CHECK: tensor.empty() : tensor<2x2xi32>
//       CHECK: linalg.generic
//       CHECK:   %[[P0:.*]] = linalg.index 0
//       CHECK:   %[[P1:.*]] = linalg.index 1
//       CHECK:   %[[I:.*]] = tensor.extract %[[IDX]][%[[P0]], %[[P1]]] : tensor<2x2xi64>
//       CHECK:   %[[J:.*]] = arith.index_cast %{{.*}} : i64 to index
//       CHECK:   tensor.extract %[[DATA]][%[[P0]], %[[J]]] : tensor<2x3xi32>
func.func @gather_elements_axis1(%d: tensor<2x3xi32>, %i: tensor<2x2xi64>) -> tensor<2x2xi32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<2x3xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}

// -----

/// Dynamic dims off the axis: indices no larger than data (torch's rule).
// CHECK-LABEL: func @gather_elements_dynamic
////       CHECK: %[[LE:.*]] = arith.cmpi ule, %{{.*}}, %{{.*}} : index
//       CHECK: cf.assert %[[LE]], "gather.gather_elements: indices dimension 1 is larger than data dimension 1"
//   CHECK-NOT: indices dimension 0
//       CHECK: cf.assert {{.*}} "gather.gather_elements: index out of range [-size, size - 1] for data dimension 0 of dynamic size"
//       CHECK: linalg.generic
func.func @gather_elements_dynamic(%d: tensor<?x?xi32>, %i: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %r = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}
