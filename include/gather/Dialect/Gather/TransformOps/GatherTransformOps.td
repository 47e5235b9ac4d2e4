//===- GatherTransformOps.td - Transform ops for gathers ---*- tablegen -*-===//

#ifndef GATHER_TRANSFORMOPS
#define GATHER_TRANSFORMOPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def FuseConsumerIntoLoopOp
    : Op<Transform_Dialect, "gather.fuse_consumer_into_loop",
         [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
          DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "Fuse an op into the tiled loop that produces its operand";
  let description = [{
    Fuses `consumer` (a gather op, or any op whose `TilingInterface` has the
    operand-tile methods) into `loop`, the `scf.forall` or `scf.for` that
    upstream's tiling made and that produces one of its operands, typically
    the ids of a gather (argmax or top-k, then a gather of the rows they
    select): each iteration computes the consumer's tile that reads exactly
    the operand tile the loop inserts, and the new loop inserts it into a
    destination built by reification. Upstream's consumer fusion drives only
    destination-style ops; the gather ops are not (`docs/Design.md`).

    The consumer's other operands must be defined before the loop; the loop
    must insert one tile (unit strides) into the result the consumer reads.
    Otherwise, or when no tile of the consumer reads exactly that operand
    tile (a gather_nd tile that splits index tuples), this is a silenceable
    failure and the loop and the consumer are unchanged (dead index
    computations the attempt built in the loop body may remain).

    Returns the tiled consumer and the new loop (which has one more result,
    the consumer's); both handles are consumed.

    ```mlir
    %fused, %new_loop = transform.gather.fuse_consumer_into_loop %gather into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$consumer,
                       TransformHandleTypeInterface:$loop);
  let results = (outs TransformHandleTypeInterface:$fused_consumer,
                      TransformHandleTypeInterface:$new_loop);
  let assemblyFormat = [{
    $consumer `into` $loop attr-dict `:` functional-type(operands, results)
  }];
}

#endif // GATHER_TRANSFORMOPS
