// RUN: gather-opt %s --split-input-file --convert-scatter-to-scf --canonicalize --cse | FileCheck %s
// RUN: gather-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --canonicalize --cse | FileCheck %s --check-prefix=IDENTITY
// RUN: gather-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries" --canonicalize --cse | FileCheck %s --check-prefix=STRIDED

// The check scan of indices that all select along one dim walks them as
// one row-major run (a nest whose inner dim is short is not vectorized):
// on tensors through a collapse, on buffers where the layout collapses.
// CHECK-LABEL: func.func @elements
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2]] : tensor<?x2x3xi64> into tensor<?xi64>
// CHECK-NOT: tensor.extract %arg1
// CHECK: %[[N:.*]] = tensor.dim %[[FLAT]], %c0
// CHECK: scf.for %[[P:.*]] = %c0 to %[[N]] step %c1
// CHECK-NEXT: tensor.extract %[[FLAT]][%[[P]]] : tensor<?xi64>
// IDENTITY-LABEL: func.func @elements
// IDENTITY: %[[FLAT:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1, 2]] : memref<?x2x3xi64> into memref<?xi64>
// IDENTITY: memref.load %[[FLAT]][%{{.*}}] : memref<?xi64>
// STRIDED-LABEL: func.func @elements
// STRIDED-NOT: memref.collapse_shape
// STRIDED: memref.load %arg1[%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x2x3xi64, strided<[?, ?, ?], offset: ?>>
func.func @elements(%d: tensor<?x2x3xf32>, %i: tensor<?x2x3xi64>, %u: tensor<?x2x3xf32>) -> tensor<?x2x3xf32> {
  %r = gather.scatter_elements %d[%i], %u {axis = 2 : i64, reduction = #gather<combine add>} : (tensor<?x2x3xf32>, tensor<?x2x3xi64>, tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
  return %r : tensor<?x2x3xf32>
}

// -----

// A scatter's indices of any rank alike.
// CHECK-LABEL: func.func @rows
// CHECK: tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<5x4xi32> into tensor<20xi32>
func.func @rows(%d: tensor<10x8xf32>, %i: tensor<5x4xi32>, %u: tensor<5x4x8xf32>) -> tensor<10x8xf32> {
  %r = gather.scatter %d[%i], %u {reduction = #gather<combine add>} : (tensor<10x8xf32>, tensor<5x4xi32>, tensor<5x4x8xf32>) -> tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}

// -----

// scatter_nd's tuples select along several dims: their scan keeps the nest.
// CHECK-LABEL: func.func @tuples
// CHECK-NOT: tensor.collapse_shape
// CHECK: tensor.extract %arg1[%{{.*}}, %{{.*}}] : tensor<?x2xi64>
func.func @tuples(%d: tensor<4x4xf32>, %i: tensor<?x2xi64>, %u: tensor<?xf32>) -> tensor<4x4xf32> {
  %r = gather.scatter_nd %d[%i], %u {reduction = #gather<combine add>} : (tensor<4x4xf32>, tensor<?x2xi64>, tensor<?xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// A tile's slice of indices would bufferize to a strided view, which a
// collapse copies: the nest stays.
// CHECK-LABEL: func.func @sliced
// CHECK-NOT: tensor.collapse_shape
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x3xi64>
func.func @sliced(%d: tensor<4x3xf32>, %all: tensor<6x3xi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %i = tensor.extract_slice %all[2, 0] [2, 3] [1, 1] : tensor<6x3xi64> to tensor<2x3xi64>
  %r = gather.scatter_elements %d[%i], %u {axis = 1 : i64, reduction = #gather<combine add>} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// A static dim of 0 beside a dynamic one has no collapsed size; there is
// nothing to scan.
// CHECK-LABEL: func.func @empty
// CHECK-NOT: tensor.collapse_shape
func.func @empty(%d: tensor<4x3xf32>, %i: tensor<?x0xi64>, %u: tensor<?x0xf32>) -> tensor<4x3xf32> {
  %r = gather.scatter_elements %d[%i], %u {axis = 1 : i64, reduction = #gather<combine add>} : (tensor<4x3xf32>, tensor<?x0xi64>, tensor<?x0xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
