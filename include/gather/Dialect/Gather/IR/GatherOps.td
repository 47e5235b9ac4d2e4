//===- GatherOps.td - Gather dialect operations ------------*- tablegen -*-===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHEROPS_TD
#define GATHER_DIALECT_GATHER_IR_GATHEROPS_TD

include "gather/Dialect/Gather/IR/GatherBase.td"
include "gather/Dialect/Gather/IR/GatherEnums.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Gather_DataElement : AnyTypeOf<[AnySignlessInteger, F16, BF16, F32, F64,
                                    Complex<F32>, Complex<F64>],
    "signless integer, f16, bf16, f32, f64, complex<f32> or complex<f64>">;
def Gather_IndexElement : AnyTypeOf<[I8, I16, I32, I64, Index],
    "i8, i16, i32, i64 or index">;

def Gather_DataTensor : TensorOf<[Gather_DataElement]>;
def Gather_IndexTensor : TensorOf<[Gather_IndexElement]>;

//===----------------------------------------------------------------------===//
// Common pieces
//===----------------------------------------------------------------------===//

def Gather_GatherOpInterface : OpInterface<"GatherOpInterface"> {
  let cppNamespace = "::mlir::gather";
  let description = [{
    What the three gather ops share, for code that handles any of them: the
    lowering, the index analyses, the mode-relaxing canonicalization.
  }];
  let methods = [
    InterfaceMethod<"The tensor gathered from.", "::mlir::Value", "getData">,
    InterfaceMethod<"The index tensor.", "::mlir::Value", "getIndices">,
    InterfaceMethod<"What an out-of-range index does.",
                    "::mlir::gather::GatherMode", "getMode">,
    InterfaceMethod<"Sets what an out-of-range index does.", "void",
                    "setMode", (ins "::mlir::gather::GatherMode":$mode)>,
    InterfaceMethod<[{The checked, normalized view of the operands
                      (GatherShapes.h); failure when the op does not
                      verify.}],
                    "::mlir::FailureOr<::mlir::gather::GatherShape>",
                    "getGatherShape">,
    InterfaceMethod<[{The same rules, with this op's attributes, applied to
                      other operand types (e.g. ranked views of unranked
                      operands); failure when they reject them.}],
                    "::mlir::FailureOr<::mlir::gather::GatherShape>",
                    "getGatherShapeFor",
                    (ins "::mlir::Type":$data, "::mlir::Type":$indices)>,
  ];
}

// Defined here, in the file whose interfaces are generated (ScatterOps.td
// holds the ops).
def Gather_ScatterOpInterface : OpInterface<"ScatterOpInterface"> {
  let cppNamespace = "::mlir::gather";
  let description = [{
    What the three scatter ops share, for code that handles any of them: the
    lowerings and the hosts that build them.
  }];
  let methods = [
    InterfaceMethod<"The initial values (the gather's data).", "::mlir::Value",
                    "getDest">,
    InterfaceMethod<"The index tensor.", "::mlir::Value", "getIndices">,
    InterfaceMethod<"The values combined into dest (the gather's result).",
                    "::mlir::Value", "getUpdates">,
    InterfaceMethod<"What an out-of-range index does.",
                    "::mlir::gather::GatherMode", "getMode">,
    InterfaceMethod<"How an update combines with its element.",
                    "::mlir::gather::ScatterCombine", "getReduction">,
    InterfaceMethod<[{The matching gather's checked, normalized view of
                      (dest, indices) (GatherShapes.h): which element of
                      dest each position of updates lands on; failure when
                      the op does not verify.}],
                    "::mlir::FailureOr<::mlir::gather::GatherShape>",
                    "getGatherShape">,
  ];
}

class Gather_GatherLikeOp<string mnemonic, list<Trait> traits = []>
    : Gather_Op<mnemonic, traits # [
        Gather_GatherOpInterface,
        NoMemoryEffect,
        DeclareOpInterfaceMethods<ConditionallySpeculatable>,
        DeclareOpInterfaceMethods<InferTypeOpInterface>,
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                  ["reifyResultShapes"]>]> {
  let results = (outs Gather_DataTensor:$result);
  let assemblyFormat = [{
    $data `[` $indices `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The checked, normalized view of this op's operands (GatherShapes.h);
    /// failure when the op does not verify.
    ::mlir::FailureOr<::mlir::gather::GatherShape> getGatherShape();
    /// The same rules, with this op's attributes, on other operand types.
    ::mlir::FailureOr<::mlir::gather::GatherShape>
    getGatherShapeFor(::mlir::Type data, ::mlir::Type indices);
    /// A static dimension refines a dynamic one, a ranked type an unranked.
    static bool isCompatibleReturnTypes(::mlir::TypeRange l,
                                        ::mlir::TypeRange r);
  }];
}

defvar Gather_ModeDefault = "::mlir::gather::GatherMode::check";

// Spliced into descriptions with !strconcat: the paste operator `#` after a
// code literal would take the name itself as text.
defvar Gather_ModeDoc = [{
    An index value `i` along a dimension of size `s` is first normalized: if
    `-s <= i < 0` it means `i + s` (64-bit arithmetic). A value still outside
    `[0, s)` is handled by `mode`:

    | mode        | out-of-range index                                  |
    |-------------|-----------------------------------------------------|
    | `check`     | runtime error naming the op, value and valid range  |
    | `fill`      | the output element (or slice) is zero               |
    | `clamp`     | the normalized index is clamped to `[0, s - 1]`     |
    | `wrap`      | Python modulo of the original index, `i mod s`      |
    | `unchecked` | undefined; no check is emitted                      |

    A dimension of size 0 has no valid index: with a non-empty index tensor
    every mode except `fill` and `unchecked` is an error.
}];

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

def Gather_GatherOp : Gather_GatherLikeOp<"gather"> {
  // Slices and compositions; mode relaxation is the dialect's (all ops).
  let hasCanonicalizer = 1;
  let summary = "gather slices along one axis (ONNX Gather, OpenVINO Gather-8)";
  let description = !strconcat([{
    Takes slices of `data` along `axis` at the positions given by `indices`.
    With `b = batch_dims` leading batch dimensions shared by `data` and
    `indices`:

    ```
    out[p_0..p_(axis-1), i_b..i_(q-1), p_(axis+1)..p_(r-1)] =
      data[p_0..p_(axis-1), indices[p_0..p_(b-1), i_b..i_(q-1)],
           p_(axis+1)..p_(r-1)]
    ```

    * `axis` in `[-r, r-1]` (negative counts from the back), default 0;
    * `batch_dims` in `[-q, q]` (negative means `batch_dims + q`), default 0;
    * after normalization `0 <= batch_dims <= axis < r`, `batch_dims <= q` and
      `data.shape[:batch_dims] == indices.shape[:batch_dims]`;
    * result shape: `data.shape[:axis] + indices.shape[batch_dims:] +
      data.shape[axis+1:]`. Scalar (0-D) indices remove the axis. Rank-0
      data is an error.
  }], Gather_ModeDoc, [{

    Example (OpenVINO Gather-8 example 2, `batch_dims = 1`, `axis = 1`):
    data `[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]`, indices
    `[[0, 0, 4], [4, 0, 0]]` give `[[1, 1, 5], [10, 6, 6]]`.

    ```mlir
    %r = gather.gather %data[%idx] {axis = 1 : i64, batch_dims = 1 : i64}
        : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    // Example 7: out-of-range indices [3, 10, -20] give [4, 0, 0].
    %f = gather.gather %v[%oob] {mode = #gather<mode fill>}
        : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
    ```
  }]);
  let arguments = (ins Gather_DataTensor:$data,
                       Gather_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       DefaultValuedAttr<Gather_ModeAttr,
                                         Gather_ModeDefault>:$mode);
}

//===----------------------------------------------------------------------===//
// GatherElementsOp
//===----------------------------------------------------------------------===//

def Gather_GatherElementsOp : Gather_GatherLikeOp<"gather_elements"> {
  let summary = "gather single elements along one axis (ONNX GatherElements, "
                "torch.gather)";
  let description = !strconcat([{
    Each element of `indices` selects one element of `data` along `axis`:

    ```
    out[p] = data[p with p[axis] replaced by indices[p]]
    ```

    * `rank(indices) == rank(data) >= 1`;
    * `axis` in `[-r, r-1]`, default 0;
    * for every dimension `d != axis`, `indices.shape[d] <= data.shape[d]`
      (torch's rule; ONNX's equal shapes are a special case); along `axis`
      `indices` may be longer or shorter than `data`;
    * the result has the shape of `indices`.
  }], Gather_ModeDoc, [{

    Example (OpenVINO GatherElements-6 example 2, `axis = 1`):
    data `[[1, 7], [4, 3]]`, indices `[[1, 1, 0], [1, 0, 1]]` give
    `[[7, 7, 1], [3, 4, 3]]`.

    ```mlir
    %r = gather.gather_elements %data[%idx] {axis = 1 : i64}
        : (tensor<2x2xi32>, tensor<2x3xi64>) -> tensor<2x3xi32>
    ```
  }]);
  let arguments = (ins Gather_DataTensor:$data,
                       Gather_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<Gather_ModeAttr,
                                         Gather_ModeDefault>:$mode);
}

//===----------------------------------------------------------------------===//
// GatherNDOp
//===----------------------------------------------------------------------===//

def Gather_GatherNDOp : Gather_GatherLikeOp<"gather_nd"> {
  let summary = "gather slices by N-D index tuples (ONNX GatherND, TF "
                "gather_nd)";
  let description = !strconcat([{
    The last dimension of `indices` holds index tuples of length
    `k = indices.shape[-1]` into the dimensions `batch_dims .. batch_dims+k-1`
    of `data`; each tuple selects a slice of the remaining dimensions:

    ```
    out[b_0..b_(B-1), i_B..i_(q-2), s..] =
      data[b_0..b_(B-1), indices[b_0..b_(B-1), i_B..i_(q-2), 0..k-1], s..]
    ```

    * `batch_dims >= 0` (default 0), `batch_dims < q`, `q >= 1`;
    * `k` must be static with `1 <= k <= r - batch_dims`;
    * `data.shape[:batch_dims] == indices.shape[:batch_dims]`;
    * result shape: `indices.shape[:-1] + data.shape[batch_dims + k:]`.

    Each component of a tuple is normalized and checked against its own
    dimension.
  }], Gather_ModeDoc, [{

    Example (ONNX GatherND, `batch_dims = 1`): data
    `[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]`, indices `[[1], [0]]` give
    `[[2, 3], [4, 5]]`.

    ```mlir
    %r = gather.gather_nd %data[%idx] {batch_dims = 1 : i64}
        : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
    ```
  }]);
  let arguments = (ins Gather_DataTensor:$data,
                       Gather_IndexTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       DefaultValuedAttr<Gather_ModeAttr,
                                         Gather_ModeDefault>:$mode);
}

include "gather/Dialect/Gather/IR/EmbeddingBagOps.td"
include "gather/Dialect/Gather/IR/ScatterOps.td"

#endif // GATHER_DIALECT_GATHER_IR_GATHEROPS_TD
