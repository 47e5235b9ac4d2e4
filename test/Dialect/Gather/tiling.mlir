// RUN: gather-opt %s --transform-interpreter --canonicalize --split-input-file | FileCheck %s

// The gather ops' TilingInterface driven by upstream's transform ops: the
// iteration domain is the result, a tile the same op on slices of data and
// indices.

/// Batch dims tile data and indices alike; the gathered axis of data is
/// read whole; the tile is the same op on the two slices.
// CHECK-LABEL: func.func @gather_batch_dims_1
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x3x7xf32>
// CHECK: scf.for %[[B:[a-z0-9_]+]] = {{.*}} iter_args(%{{.*}} = %[[EMPTY]])
// CHECK:   scf.for %[[J:[a-z0-9_]+]] =
// CHECK:     %[[N:.*]] = affine.min
// CHECK:     %[[D:.*]] = tensor.extract_slice %arg0[%[[B]], 0, 0] [1, 5, 7] [1, 1, 1]
// CHECK:     %[[I:.*]] = tensor.extract_slice %arg1[%[[B]], %[[J]]] [1, %[[N]]] [1, 1]
// CHECK:     %[[G:.*]] = gather.gather %[[D]][%[[I]]] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<1x5x7xf32>, tensor<1x?xi32>) -> tensor<1x?x7xf32>
// CHECK:     tensor.insert_slice %[[G]] into %{{.*}}[%[[B]], %[[J]], 0] [1, %[[N]], 7]
func.func @gather_batch_dims_1(%d: tensor<2x5x7xf32>, %i: tensor<2x3xi32>) -> tensor<2x3x7xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5x7xf32>, tensor<2x3xi32>) -> tensor<2x3x7xf32>
  return %r : tensor<2x3x7xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0, %l1 = transform.structured.tile_using_for %g tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// Result dims from data before and after the axis slice data; the dims
/// from the indices slice the indices.
// CHECK-LABEL: func.func @gather_data_dims_around_axis
// CHECK-COUNT-4: scf.for
// CHECK: %[[D:.*]] = tensor.extract_slice %arg0[%{{.*}}, 0, %{{.*}}] [2, 10, 3] [1, 1, 1]
// CHECK: %[[I:.*]] = tensor.extract_slice %arg1[%{{.*}}, %{{.*}}] [1, %{{.*}}] [1, 1]
// CHECK: gather.gather %[[D]][%[[I]]] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<2x10x3xf32>, tensor<1x?xi64>) -> tensor<2x1x?x3xf32>
func.func @gather_data_dims_around_axis(%d: tensor<4x10x6xf32>, %i: tensor<3x5xi64>) -> tensor<4x3x5x6xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<4x10x6xf32>, tensor<3x5xi64>) -> tensor<4x3x5x6xf32>
  return %r : tensor<4x3x5x6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0, %l1, %l2, %l3 = transform.structured.tile_using_for %g tile_sizes [2, 1, 4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// A scalar index: every result dim comes from data.
// CHECK-LABEL: func.func @gather_scalar_index
// CHECK: scf.for %[[J:[a-z0-9_]+]] =
// CHECK:   %[[D:.*]] = tensor.extract_slice %arg0[0, %[[J]]] [8, 4] [1, 1]
// CHECK:   gather.gather %[[D]][%arg1] : (tensor<8x4xf32>, tensor<i32>) -> tensor<4xf32>
func.func @gather_scalar_index(%d: tensor<8x16xf32>, %i: tensor<i32>) -> tensor<16xf32> {
  %r = gather.gather %d[%i] : (tensor<8x16xf32>, tensor<i32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0 = transform.structured.tile_using_for %g tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// gather_elements reads data at the result's positions off the axis (data
/// may be larger there, a rule checked at run time: the data slice is cut
/// to what data has, so a violation fails in the tile's own check instead of
/// reading out of bounds); the axis is read whole.
// CHECK-LABEL: func.func @gather_elements_dynamic
// CHECK: scf.for %[[R:[a-z0-9_]+]] =
// CHECK:   scf.for %[[C:[a-z0-9_]+]] =
// CHECK:     %[[AXIS:.*]] = tensor.dim %arg0, %c1
// CHECK:     %[[ROWS:.*]] = tensor.dim %arg0, %c0
// CHECK:     %[[LEFT:.*]] = affine.max #{{.*}}()[%[[R]], %[[ROWS]]]
// CHECK:     %[[CUT:.*]] = affine.min #{{.*}}(%[[R]])[%[[LEFT]], %{{.*}}]
// CHECK:     %[[D:.*]] = tensor.extract_slice %arg0[%[[R]], 0] [%[[CUT]], %[[AXIS]]] [1, 1]
// CHECK:     %[[I:.*]] = tensor.extract_slice %arg1[%[[R]], %[[C]]]
// CHECK:     gather.gather_elements %[[D]][%[[I]]] {axis = 1 : i64, mode = #gather<mode wrap>}
func.func @gather_elements_dynamic(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0, %l1 = transform.structured.tile_using_for %g tile_sizes [2, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// gather_nd under scf.forall: the tuple dim of the indices is whole, the
/// indexed data dims are whole, the batch dim is tiled in both.
// CHECK-LABEL: func.func @gather_nd_batch_dims_1
// CHECK: scf.forall
// CHECK:   %[[B:.*]] = affine.apply
// CHECK:   %[[J:.*]] = affine.apply
// CHECK:   %[[D:.*]] = tensor.extract_slice %arg0[%[[B]], 0, 0, 0] [2, 6, 8, 3]
// CHECK:   %[[I:.*]] = tensor.extract_slice %arg1[%[[B]], %[[J]], 0] [2, %{{.*}}, 2]
// CHECK:   %[[G:.*]] = gather.gather_nd %[[D]][%[[I]]] {batch_dims = 1 : i64, mode = #gather<mode fill>}
// CHECK:   tensor.parallel_insert_slice %[[G]]
func.func @gather_nd_batch_dims_1(%d: tensor<4x6x8x3xf32>, %i: tensor<4x5x2xi32>) -> tensor<4x5x3xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<4x6x8x3xf32>, tensor<4x5x2xi32>) -> tensor<4x5x3xf32>
  return %r : tensor<4x5x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [2, 2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// A dynamic batch dim: the domain is data's; the indices' slice is cut to
/// what the indices have, and the last tile takes all they have left, so
/// unequal batch dims fail the tile's run-time shape check (instead of
/// reading out of bounds, or leaving the rest of longer indices unread).
// CHECK-LABEL: func.func @gather_dynamic_batch
// CHECK: %[[DDIM:.*]] = tensor.dim %arg0, %c0
// CHECK: scf.for %[[B:[a-z0-9_]+]] =
// CHECK:   %[[SIZE:.*]] = affine.min
// CHECK:   %[[D:.*]] = tensor.extract_slice %arg0[%[[B]], 0] [%[[SIZE]], 5]
// CHECK:   %[[IDIM:.*]] = tensor.dim %arg1, %c0
// CHECK:   %[[LEFT:.*]] = affine.max #{{.*}}()[%[[B]], %[[IDIM]]]
// CHECK:   %[[CUT:.*]] = affine.min #{{.*}}(%[[B]])[%[[LEFT]], %{{.*}}]
// CHECK:   %[[END:.*]] = affine.apply #{{.*}}()[%[[B]], %[[SIZE]]]
// CHECK:   %[[LAST:.*]] = arith.cmpi sge, %[[END]], %{{.*}} : index
// CHECK:   %[[N:.*]] = arith.select %[[LAST]], %[[LEFT]], %[[CUT]] : index
// CHECK:   %[[I:.*]] = tensor.extract_slice %arg1[%[[B]], 0] [%[[N]], 3]
// CHECK:   gather.gather %[[D]][%[[I]]]
func.func @gather_dynamic_batch(%d: tensor<?x5xf32>, %i: tensor<?x3xi32>) -> tensor<?x3xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<?x5xf32>, tensor<?x3xi32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0 = transform.structured.tile_using_for %g tile_sizes [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
