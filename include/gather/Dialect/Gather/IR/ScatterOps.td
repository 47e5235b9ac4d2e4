//===- ScatterOps.td - The gathers' adjoints ------------------*- tablegen -*-===//
//
// Included by GatherOps.td: the scatters, each the adjoint of a gather op.
// They take the gather's attributes and index rules; `updates` has the
// gather's result shape and `dest` its data's.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_SCATTEROPS_TD
#define GATHER_DIALECT_GATHER_IR_SCATTEROPS_TD

include "mlir/Interfaces/DestinationStyleOpInterface.td"

def Gather_RankedDataTensor : RankedTensorOf<[Gather_DataElement]>;
def Gather_RankedIndexTensor : RankedTensorOf<[Gather_IndexElement]>;

class Gather_ScatterLikeOp<string mnemonic, list<Trait> traits = []>
    : Gather_Op<mnemonic, traits # [
        Gather_ScatterOpInterface,
        NoMemoryEffect,
        DeclareOpInterfaceMethods<ConditionallySpeculatable>,
        DestinationStyleOpInterface,
        AllTypesMatch<["dest", "result"]>,
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                  ["reifyResultShapes"]>]> {
  let results = (outs Gather_RankedDataTensor:$result);
  let assemblyFormat = [{
    $dest `[` $indices `]` `,` $updates attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The matching gather's view of (dest, indices) (GatherShapes.h);
    /// failure when the op does not verify.
    ::mlir::FailureOr<::mlir::gather::GatherShape> getGatherShape();
    /// DestinationStyleOpInterface: `dest` is the init.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getDestMutable();
    }
  }];
}

// Spliced into the scatters' descriptions.
defvar Gather_ScatterDoc = [{
    `reduction` says how an update combines with the element it lands on:
    `none` (the default) assigns, `add`, `mul`, `max`, `min` combine. Every
    position of `updates` is applied, in the row-major order of `updates`:
    with duplicate indices `none` keeps the last update, and the other
    reductions give the result of that sequential loop, bit for bit, at any
    thread count (floating-point `add` included). f16 and bf16 combine in
    f32 and round once per element of `dest`. On `i1`, `add` is logical or,
    `mul` logical and (torch's bool arithmetic); `max`/`min` on complex
    numbers are an error.

    Indices follow the gather's index rules; a mode is the adjoint of the
    gather's: `check` is an error naming the op, the value and the valid
    range, and nothing is written; `fill` drops that update (its gather read
    zeros); `clamp` and `wrap` combine into the element their gather read;
    `unchecked` trusts the caller.
}];

def Gather_ScatterOp : Gather_ScatterLikeOp<"scatter"> {
  let summary = "scatter slices along one axis (the adjoint of gather.gather)";
  let description = !strconcat([{
    Combines `updates`, which has `gather.gather`'s result shape for `dest`
    and `indices`, into the slices of `dest` along `axis` that `indices`
    select: the gather reads `dest[..., indices[j], ...]` into position
    `(..., j, ...)` of its result, and the scatter combines position
    `(..., j, ...)` of `updates` into that element. `axis` and `batch_dims`
    follow `gather.gather`'s rules. With `reduction = add` it is
    `torch.index_add` (and the gradient of `gather.gather` with respect to
    its data).
  }], Gather_ScatterDoc, [{

    Example (`index_add` along axis 1 with a duplicate index):
    dest `[[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]`, indices `[1, 4, 1]`,
    updates `[[1, 2, 3], [4, 5, 6]]` give `[[0, 4, 0, 0, 2], [0, 10, 0, 0,
    5]]`.

    ```mlir
    %s = gather.scatter %dest[%idx], %upd {axis = 1 : i64,
           reduction = #gather<combine add>}
        : (tensor<2x5xf32>, tensor<3xi64>, tensor<2x3xf32>) -> tensor<2x5xf32>
    ```
  }]);
  let arguments = (ins Gather_RankedDataTensor:$dest,
                       Gather_RankedIndexTensor:$indices,
                       Gather_RankedDataTensor:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       DefaultValuedAttr<Gather_ModeAttr,
                                         Gather_ModeDefault>:$mode,
                       DefaultValuedAttr<Gather_CombineAttr,
                           "::mlir::gather::ScatterCombine::none">:$reduction);
}

def Gather_ScatterElementsOp : Gather_ScatterLikeOp<"scatter_elements"> {
  let summary = "scatter single elements along one axis (ONNX "
                "ScatterElements, torch.scatter_reduce)";
  let description = !strconcat([{
    Each element of `updates` (the shape of `indices`) is combined into the
    element of `dest` that `gather.gather_elements` would read for it:

    ```
    dest[p with p[axis] replaced by indices[p]] <- updates[p]
    ```

    `axis` and the shapes follow `gather.gather_elements`' rules (torch's:
    `indices.shape[d] <= dest.shape[d]` off the axis).
  }], Gather_ScatterDoc, [{

    Example (ONNX ScatterElements example 2, `axis = 1`): dest
    `[[1, 2, 3, 4, 5]]`, indices `[[1, 3]]`, updates `[[1.1, 2.1]]` give
    `[[1, 1.1, 3, 2.1, 5]]`.

    ```mlir
    %t = gather.scatter_elements %dest[%idx], %upd {axis = 1 : i64}
        : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
    ```
  }]);
  let arguments = (ins Gather_RankedDataTensor:$dest,
                       Gather_RankedIndexTensor:$indices,
                       Gather_RankedDataTensor:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<Gather_ModeAttr,
                                         Gather_ModeDefault>:$mode,
                       DefaultValuedAttr<Gather_CombineAttr,
                           "::mlir::gather::ScatterCombine::none">:$reduction);
}

def Gather_ScatterNDOp : Gather_ScatterLikeOp<"scatter_nd"> {
  let summary = "scatter slices by N-D index tuples (ONNX ScatterND, "
                "tf.tensor_scatter_nd_add)";
  let description = !strconcat([{
    Each index tuple (the last dimension of `indices`) selects a slice of
    `dest`, as for `gather.gather_nd`; the matching slice of `updates` (the
    shape `indices.shape[:-1] + dest.shape[batch_dims + k:]`) is combined
    into it. `batch_dims` follows `gather.gather_nd`'s rules.
  }], Gather_ScatterDoc, [{

    Example (ONNX ScatterND with `reduction = add` and a duplicate tuple):
    dest `[1, 2, 3, 4]`, indices `[[1], [1], [3]]`, updates `[10, 20, 30]`
    give `[1, 32, 3, 34]`.

    ```mlir
    %u = gather.scatter_nd %dest[%idx], %upd {reduction = #gather<combine add>}
        : (tensor<4xf32>, tensor<3x1xi64>, tensor<3xf32>) -> tensor<4xf32>
    ```
  }]);
  let arguments = (ins Gather_RankedDataTensor:$dest,
                       Gather_RankedIndexTensor:$indices,
                       Gather_RankedDataTensor:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       DefaultValuedAttr<Gather_ModeAttr,
                                         Gather_ModeDefault>:$mode,
                       DefaultValuedAttr<Gather_CombineAttr,
                           "::mlir::gather::ScatterCombine::none">:$reduction);
}

#endif // GATHER_DIALECT_GATHER_IR_SCATTEROPS_TD
