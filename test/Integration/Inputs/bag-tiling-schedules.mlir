// Transform schedules for embedding-bag-tiling.mlir (a library, so that the
// payload module holds no schedule when it is lowered).
module attributes {transform.with_named_sequence} {
  /// Every embedding bag tiled by 2 bags with scf.for.
  transform.named_sequence @bags_for(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %g : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l = transform.structured.tile_using_for %op tile_sizes [2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// Every embedding bag tiled by 3 bags x 2 columns with scf.forall.
  transform.named_sequence @bags_dim_forall(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %g : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l = transform.structured.tile_using_forall %op tile_sizes [3, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// Every embedding bag on four threads along bags (upstream's num_threads
  /// tiling: a tile may be empty).
  transform.named_sequence @bags_num_threads(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %g : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l = transform.structured.tile_using_forall %op num_threads [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// Every embedding bag tiled by one bag x one column with scf.for.
  transform.named_sequence @each_for(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %g : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [1, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }
    transform.yield
  }
}
