// Transform schedules for scatter-tiling.mlir (a library, so that the
// payload module holds no schedule when it is lowered).
module attributes {transform.with_named_sequence} {
  /// Every scatter tiled by [1, 1] with scf.for: the dims of index
  /// positions too, whose tiles write the same elements in order.
  transform.named_sequence @tile_using_for(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gather.scatter", "gather.scatter_elements", "gather.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %s : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [1, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// Every scatter tiled by [0, 2] with scf.forall: along dim 1 only,
  /// which is parallel in every scatter of the payload.
  transform.named_sequence @tile_using_forall(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gather.scatter", "gather.scatter_elements", "gather.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %s : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l = transform.structured.tile_using_forall %op tile_sizes [0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// @fused: its consumer tiled by columns with scf.forall, the scatter
  /// fused into the loop (each tile of the result applies every update
  /// that lands in its columns).
  transform.named_sequence @fuse_producer(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} attributes{sym_name = "fused"} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.structured.match ops{["linalg.generic"]} in %f : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.match ops{["gather.scatter"]} in %f : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %c tile_sizes [0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fs, %nf = transform.structured.fuse_into_containing_op %s into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
