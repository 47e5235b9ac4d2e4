// RUN: gather-opt %s --transform-interpreter --split-input-file -verify-diagnostics | FileCheck %s

// transform.gather.fuse_consumer_into_loop: a gather op fused into the
// tiled loop that produces its ids (the operand-tile methods of its
// TilingInterface); execution in test/Integration/consumer-fusion.mlir.

/// gather_elements whose indices an elementwise producer makes, tiled 2x2
/// with scf.forall: each iteration gathers its 2x2 tile of the result from
/// the rows of data that tile reads (data sliced along the non-axis dim).
// CHECK-LABEL: func.func @elements
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x6xf32>
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (2, 3) shared_outs(%{{.*}} = %{{.*}}, %[[OUT:.*]] = %[[E]])
// CHECK:   %[[IDS:.*]] = linalg.generic
// CHECK:   %[[D:.*]] = tensor.extract_slice %arg0[%{{.*}}, 0] [2, 9] [1, 1]
// CHECK:   %[[G:.*]] = gather.gather_elements %[[D]][%[[IDS]]] {axis = 1 : i64} : (tensor<2x9xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %[[G]] into %[[OUT]]
func.func @elements(%d: tensor<4x9xf32>, %x: tensor<4x6xi32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xi32>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xi32>) outs(%e : tensor<4x6xi32>) {
  ^bb0(%a: i32, %o: i32):
    %c1 = arith.constant 1 : i32
    %b = arith.addi %a, %c1 : i32
    linalg.yield %b : i32
  } -> tensor<4x6xi32>
  %r = gather.gather_elements %d[%ids] {axis = 1 : i64} : (tensor<4x9xf32>, tensor<4x6xi32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// gather with batch_dims: a tile of the 2-D ids fixes the batch and index
/// dims of the result; data is sliced along the batch dim only.
// CHECK-LABEL: func.func @batched
// CHECK: scf.forall
// CHECK:   %[[D:.*]] = tensor.extract_slice %arg0[%{{.*}}, 0, 0] [1, 7, 5] [1, 1, 1]
// CHECK:   gather.gather %[[D]][%{{.*}}] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<1x7x5xf32>, tensor<1x3xi64>) -> tensor<1x3x5xf32>
func.func @batched(%d: tensor<2x7x5xf32>, %x: tensor<2x6xi64>) -> tensor<2x6x5xf32> {
  %e = tensor.empty() : tensor<2x6xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x6xi64>) outs(%e : tensor<2x6xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<2x6xi64>
  %r = gather.gather %d[%ids] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x7x5xf32>, tensor<2x6xi64>) -> tensor<2x6x5xf32>
  return %r : tensor<2x6x5xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [1, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// Dynamic sizes: the consumer's sizes come from the loop's init (a value
/// before the loop), not from the loop's own result.
// CHECK-LABEL: func.func @dynamic
//       CHECK: %[[INIT:.*]] = tensor.empty(%{{.*}}) : tensor<?xi64>
//       CHECK: tensor.dim %[[INIT]]
//       CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x3xf32>
//       CHECK: scf.forall {{.*}} shared_outs(%{{.*}} = %[[INIT]], %[[OUT:.*]] = %[[E]])
//       CHECK:   %[[IDS:.*]] = linalg.generic
//       CHECK:   gather.gather %{{.*}}[%[[IDS]]] {mode = #gather<mode clamp>} : (tensor<9x3xf32>, tensor<?xi64>) -> tensor<?x3xf32>
//       CHECK:   tensor.parallel_insert_slice %{{.*}} into %[[OUT]]
func.func @dynamic(%d: tensor<9x3xf32>, %x: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xi64>) outs(%e : tensor<?xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<?xi64>
  %r = gather.gather %d[%ids] {mode = #gather<mode clamp>} : (tensor<9x3xf32>, tensor<?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// gather_nd reads whole index tuples: a tile that splits them has no tile
/// of the gather.
func.func @split_tuples(%d: tensor<5x6x7xf32>, %x: tensor<8x2xi64>) -> tensor<8x7xf32> {
  %e = tensor.empty() : tensor<8x2xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x2xi64>) outs(%e : tensor<8x2xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<8x2xi64>
  // expected-note @below {{consumer}}
  %r = gather.gather_nd %d[%ids] : (tensor<5x6x7xf32>, tensor<8x2xi64>) -> tensor<8x7xf32>
  return %r : tensor<8x7xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [4, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot fuse the consumer into the loop: no tile of the consumer reads exactly the tile the loop inserts into operand #1}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// The table must be there before the loop.
func.func @table_after_loop(%x: tensor<4xi64>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<4xi64>
  %z = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<9x3xf32>
  %t = linalg.fill ins(%z : f32) outs(%te : tensor<9x3xf32>) -> tensor<9x3xf32>
  // expected-note @below {{consumer}}
  %r = gather.gather %t[%ids] : (tensor<9x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot fuse the consumer into the loop: operand #0 of the consumer is not defined before the loop}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// A loop the consumer does not read.
func.func @unrelated(%d: tensor<9x3xf32>, %x: tensor<4xi64>, %y: tensor<4xi64>) -> (tensor<4xi64>, tensor<4x3xf32>) {
  %e = tensor.empty() : tensor<4xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<4xi64>
  // expected-note @below {{consumer}}
  %r = gather.gather %d[%y] : (tensor<9x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %ids, %r : tensor<4xi64>, tensor<4x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_for %p tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot fuse the consumer into the loop: no operand of the consumer is a result of the loop}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// After a failure the loop and the gather are as they were (the failure
/// suppressed, so the IR is printed).
// CHECK-LABEL: func.func @unchanged_after_failure
//       CHECK: %[[L:.*]] = scf.forall {{.*}} -> (tensor<8x2xi64>) {
//       CHECK: gather.gather_nd %{{.*}}[%[[L]]] : (tensor<5x6x7xf32>, tensor<8x2xi64>) -> tensor<8x7xf32>
func.func @unchanged_after_failure(%d: tensor<5x6x7xf32>, %x: tensor<8x2xi64>) -> tensor<8x7xf32> {
  %e = tensor.empty() : tensor<8x2xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x2xi64>) outs(%e : tensor<8x2xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<8x2xi64>
  %r = gather.gather_nd %d[%ids] : (tensor<5x6x7xf32>, tensor<8x2xi64>) -> tensor<8x7xf32>
  return %r : tensor<8x7xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [4, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg: !transform.any_op):
      %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
}

// -----

/// A consumer without TilingInterface.
func.func @not_tileable(%x: tensor<4xi64>) -> tensor<4xi64> {
  %e = tensor.empty() : tensor<4xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<4xi64>
  // expected-note @below {{consumer}}
  %r = tensor.cast %ids : tensor<4xi64> to tensor<?xi64>
  %s = tensor.cast %r : tensor<?xi64> to tensor<4xi64>
  return %s : tensor<4xi64>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.structured.match ops{["tensor.cast"]} in %root : (!transform.any_op) -> !transform.any_op
    %c0:2 = transform.split_handle %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{the consumer does not implement TilingInterface}}
    %f, %l = transform.gather.fuse_consumer_into_loop %c0#0 into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// The "loop" is not one that tiling made.
func.func @not_a_loop(%d: tensor<9x3xf32>, %x: tensor<4xi64>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<4xi64>
  // expected-note @below {{consumer}}
  %r = gather.gather %d[%ids] : (tensor<9x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot fuse the consumer into the loop: the loop is neither an scf.forall nor an scf.for}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %p : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// Data and indices both from the loop.
func.func @two_operands_from_loop(%x: tensor<4x4xi64>) -> tensor<4x4xi64> {
  %e = tensor.empty() : tensor<4x4xi64>
  %p:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xi64>) outs(%e, %e : tensor<4x4xi64>, tensor<4x4xi64>) {
  ^bb0(%a: i64, %o: i64, %o2: i64):
    linalg.yield %a, %a : i64, i64
  } -> (tensor<4x4xi64>, tensor<4x4xi64>)
  // expected-note @below {{consumer}}
  %r = gather.gather_elements %p#0[%p#1] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<4x4xi64>, tensor<4x4xi64>) -> tensor<4x4xi64>
  return %r : tensor<4x4xi64>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot fuse the consumer into the loop: more than one operand of the consumer comes from the loop}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// One consumer and one loop per application.
func.func @two_consumers(%d: tensor<9x3xf32>, %x: tensor<4xi64>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %e = tensor.empty() : tensor<4xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<4xi64>
  %r = gather.gather %d[%ids] : (tensor<9x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  %s = gather.gather %d[%ids] {mode = #gather<mode clamp>} : (tensor<9x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %r, %s : tensor<4x3xf32>, tensor<4x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{expects one consumer and one loop, got 2 and 1}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// Fixed-length bags whose [bags, n] ids a producer makes, tiled by whole
/// rows: each iteration reduces its bags, every column of the result, with
/// its rows of per_sample_weights.
// CHECK-LABEL: func.func @fixed_bags
// CHECK: scf.forall (%[[I:.*]]) in (3) shared_outs(%{{.*}} = %{{.*}}, %[[OUT:.*]] = %{{.*}})
// CHECK:   %[[IDS:.*]] = linalg.generic
// CHECK:   %[[W:.*]] = tensor.extract_slice %arg2[%{{.*}}, 0] [2, 2] [1, 1]
// CHECK:   %[[B:.*]] = gather.embedding_bag %arg0[%[[IDS]]] per_sample_weights(%[[W]]) {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x3xf32>
// CHECK:   scf.forall.in_parallel
// CHECK:     tensor.parallel_insert_slice %[[B]] into %[[OUT]][%{{.*}}, 0] [2, 3]
func.func @fixed_bags(%t: tensor<5x3xf32>, %x: tensor<6x2xi64>, %w: tensor<6x2xf32>) -> tensor<6x3xf32> {
  %e = tensor.empty() : tensor<6x2xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x2xi64>) outs(%e : tensor<6x2xi64>) {
  ^bb0(%a: i64, %o: i64):
    %c1 = arith.constant 1 : i64
    %b = arith.addi %a, %c1 : i64
    linalg.yield %b : i64
  } -> tensor<6x2xi64>
  %r = gather.embedding_bag %t[%ids] per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<6x2xi64>, tensor<6x2xf32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// A tile of the ids that cuts their rows apart fixes no bag.
func.func @bags_cut_rows(%t: tensor<5x3xf32>, %x: tensor<6x2xi64>) -> tensor<6x3xf32> {
  %e = tensor.empty() : tensor<6x2xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x2xi64>) outs(%e : tensor<6x2xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<6x2xi64>
  // expected-note @below {{consumer}}
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<6x2xi64>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot fuse the consumer into the loop: no tile of the consumer reads exactly the tile the loop inserts into operand #1}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// Bags with offsets read ranges of ids that the offsets' values decide.
func.func @bags_with_offsets(%t: tensor<5x3xf32>, %x: tensor<6xi64>, %o: tensor<3xi64>) -> tensor<3x3xf32> {
  %e = tensor.empty() : tensor<6xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<6xi64>) outs(%e : tensor<6xi64>) {
  ^bb0(%a: i64, %u: i64):
    linalg.yield %a : i64
  } -> tensor<6xi64>
  // expected-note @below {{consumer}}
  %r = gather.embedding_bag %t[%ids] offsets(%o) {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot fuse the consumer into the loop: no tile of the consumer reads exactly the tile the loop inserts into operand #1}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// Dynamic row length: the tile takes whole rows, as value bounds show
/// through the producer.
// CHECK-LABEL: func.func @fixed_bags_dynamic
// CHECK: scf.forall
// CHECK:   %[[IDS:.*]] = linalg.generic
// CHECK:   gather.embedding_bag %arg0[%[[IDS]]] {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<?x?xi64>) -> tensor<?x3xf32>
// CHECK:   scf.forall.in_parallel
func.func @fixed_bags_dynamic(%t: tensor<5x3xf32>, %x: tensor<?x?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xi64>
  %m = tensor.dim %x, %c1 : tensor<?x?xi64>
  %e = tensor.empty(%n, %m) : tensor<?x?xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xi64>) outs(%e : tensor<?x?xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<?x?xi64>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<?x?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

/// Fixed-length bags whose ids have a static row length no memory holds:
/// the fused tile's dynamic bag count would hide it until the count folds
/// back and the collapsed ids' size wraps. The bag refuses to be tiled (a
/// gather-fuzz finding: IR that did not verify after expand-strided-metadata).
func.func @bags_uncountable_row_length(%t: tensor<5x3xf32>, %x: tensor<6x9223372036854775807xi64>) -> tensor<6x3xf32> {
  %e = tensor.empty() : tensor<6x9223372036854775807xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x9223372036854775807xi64>) outs(%e : tensor<6x9223372036854775807xi64>) {
  ^bb0(%a: i64, %o: i64):
    linalg.yield %a : i64
  } -> tensor<6x9223372036854775807xi64>
  // expected-error @below {{'gather.embedding_bag' op has static sizes whose element count overflows int64; it cannot be tiled or lowered}}
  // expected-note @below {{consumer}}
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<6x9223372036854775807xi64>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{cannot fuse the consumer into the loop: the consumer has no implementation of that tile}}
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
