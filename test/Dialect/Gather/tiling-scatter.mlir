// RUN: gather-opt %s --transform-interpreter --canonicalize --split-input-file | FileCheck %s

// The scatters' TilingInterface driven by upstream's transform ops: the
// iteration domain is updates; a tile is the same op on slices of dest
// (whole along the indexed axis), indices and updates, carried through the
// loop nest as its destination.

/// index_add of rows: the index positions (dim 0, a reduction) and the
/// columns (parallel) tiled by scf.for; the tile of dest is its columns.
// CHECK-LABEL: func.func @scatter_rows
// CHECK: scf.for %[[R:[a-z0-9_]+]] = {{.*}} iter_args(%[[A:.*]] = %arg0)
// CHECK:   scf.for %[[C:[a-z0-9_]+]] = {{.*}} iter_args(%[[B:.*]] = %[[A]])
// CHECK:     %[[N:.*]] = affine.min
// CHECK:     %[[M:.*]] = affine.min
// CHECK:     %[[D:.*]] = tensor.extract_slice %[[B]][0, %[[C]]] [8, %[[M]]] [1, 1]
// CHECK:     %[[I:.*]] = tensor.extract_slice %arg1[%[[R]]] [%[[N]]] [1]
// CHECK:     %[[U:.*]] = tensor.extract_slice %arg2[%[[R]], %[[C]]] [%[[N]], %[[M]]] [1, 1]
// CHECK:     %[[S:.*]] = gather.scatter %[[D]][%[[I]]], %[[U]] {reduction = #gather<combine add>} : (tensor<8x?xf32>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<8x?xf32>
// CHECK:     tensor.insert_slice %[[S]] into %[[B]][0, %[[C]]] [8, %[[M]]] [1, 1]
func.func @scatter_rows(%d: tensor<8x6xf32>, %i: tensor<5xi64>, %u: tensor<5x6xf32>) -> tensor<8x6xf32> {
  %r = gather.scatter %d[%i], %u {reduction = #gather<combine add>} : (tensor<8x6xf32>, tensor<5xi64>, tensor<5x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gather.scatter"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0, %l1 = transform.structured.tile_using_for %s tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// scatter_elements along axis 1: rows are parallel and tiled by
/// scf.forall; dest's tile takes the rows, every column.
// CHECK-LABEL: func.func @scatter_elements_rows
// CHECK: scf.forall (%[[R:.*]]) in (3) shared_outs(%[[O:.*]] = %arg0)
// CHECK:   %[[D:.*]] = tensor.extract_slice %[[O]][%[[R]], 0] [1, 7] [1, 1]
// CHECK:   %[[I:.*]] = tensor.extract_slice %arg1[%[[R]], 0] [1, 4] [1, 1]
// CHECK:   %[[U:.*]] = tensor.extract_slice %arg2[%[[R]], 0] [1, 4] [1, 1]
// CHECK:   %[[S:.*]] = gather.scatter_elements %[[D]][%[[I]]], %[[U]] {axis = 1 : i64, reduction = #gather<combine max>} : (tensor<1x7xf32>, tensor<1x4xi64>, tensor<1x4xf32>) -> tensor<1x7xf32>
// CHECK:   tensor.parallel_insert_slice %[[S]] into %[[O]][%[[R]], 0] [1, 7] [1, 1]
func.func @scatter_elements_rows(%d: tensor<3x7xf32>, %i: tensor<3x4xi64>, %u: tensor<3x4xf32>) -> tensor<3x7xf32> {
  %r = gather.scatter_elements %d[%i], %u {axis = 1 : i64, reduction = #gather<combine max>} : (tensor<3x7xf32>, tensor<3x4xi64>, tensor<3x4xf32>) -> tensor<3x7xf32>
  return %r : tensor<3x7xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gather.scatter_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %s tile_sizes [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// scatter_nd with a batch dim: the batch tiles dest and indices alike, the
/// index tuples stay whole.
// CHECK-LABEL: func.func @scatter_nd_batch
// CHECK: scf.for %[[B:[a-z0-9_]+]] =
// CHECK:   %[[D:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0, 0] [1, 5, 3] [1, 1, 1]
// CHECK:   %[[I:.*]] = tensor.extract_slice %arg1[%[[B]], 0, 0] [1, 4, 1] [1, 1, 1]
// CHECK:   %[[U:.*]] = tensor.extract_slice %arg2[%[[B]], 0, 0] [1, 4, 3] [1, 1, 1]
// CHECK:   gather.scatter_nd %[[D]][%[[I]]], %[[U]] {batch_dims = 1 : i64, reduction = #gather<combine add>} : (tensor<1x5x3xf32>, tensor<1x4x1xi64>, tensor<1x4x3xf32>) -> tensor<1x5x3xf32>
func.func @scatter_nd_batch(%d: tensor<2x5x3xf32>, %i: tensor<2x4x1xi64>, %u: tensor<2x4x3xf32>) -> tensor<2x5x3xf32> {
  %r = gather.scatter_nd %d[%i], %u {batch_dims = 1 : i64, reduction = #gather<combine add>} : (tensor<2x5x3xf32>, tensor<2x4x1xi64>, tensor<2x4x3xf32>) -> tensor<2x5x3xf32>
  return %r : tensor<2x5x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gather.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %s tile_sizes [1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
