// Transform schedules for tiling.mlir (a library, so that the payload
// module holds no schedule when it is lowered).
module attributes {transform.with_named_sequence} {
  /// Every gather op tiled by [1, 2] with scf.for.
  transform.named_sequence @tile_using_for(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match interface{TilingInterface} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %g : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// Every gather op tiled by [1, 2] with scf.forall.
  transform.named_sequence @tile_using_forall(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match interface{TilingInterface} in %root : (!transform.any_op) -> !transform.any_op
    transform.foreach %g : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l = transform.structured.tile_using_forall %op tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// @fused: the consumer tiled with scf.forall, the gather fused into it
  /// (fuse_into_containing_op). @siblings: structured.fuse tiles the
  /// consumer and fuses both gathers.
  transform.named_sequence @fuse_producers(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} attributes{sym_name = "fused"} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.structured.match ops{["linalg.generic"]} in %f : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.gather"]} in %f : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %c tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fg, %nf = transform.structured.fuse_into_containing_op %g into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s = transform.structured.match ops{["func.func"]} attributes{sym_name = "siblings"} in %root : (!transform.any_op) -> !transform.any_op
    %c2 = transform.structured.match ops{["linalg.generic"]} in %s : (!transform.any_op) -> !transform.any_op
    %t2, %l0, %l1 = transform.structured.fuse %c2 tile_sizes [1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
