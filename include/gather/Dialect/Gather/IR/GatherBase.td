//===- GatherBase.td - Gather dialect definition -----------*- tablegen -*-===//
//
// The `gather` dialect: ONNX Gather / GatherElements / GatherND with every
// out-of-range index mode.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERBASE_TD
#define GATHER_DIALECT_GATHER_IR_GATHERBASE_TD

include "mlir/IR/OpBase.td"

def Gather_Dialect : Dialect {
  let name = "gather";
  let cppNamespace = "::mlir::gather";
  let summary = "Gather, GatherElements and GatherND with explicit index modes";
  let description = [{
    The `gather` dialect models the gather family of ML operators on tensors:

    * `gather.gather`: ONNX Gather, TF gather and OpenVINO Gather-8 (`axis`,
      negative indices, `batch_dims`);
    * `gather.gather_elements`: ONNX GatherElements, `torch.gather`;
    * `gather.gather_nd`: ONNX GatherND, TF `gather_nd` (batched N-D tuples);
    * `gather.embedding_bag`: `torch.nn.EmbeddingBag` (rows gathered by ids
      and reduced per bag: sum, mean or max).

    Every op carries a `mode` that fixes what an out-of-range index does:
    `check` (error, the default), `fill` (zero), `clamp`, `wrap` (Python
    modulo) or `unchecked` (the caller promises in-range indices).
    Negative indices in `[-s, -1]` count from the end of their dimension in
    every mode.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  // Patterns on GatherOpInterface, for all three ops at once.
  let hasCanonicalizer = 1;
  let hasConstantMaterializer = 1;
}

class Gather_Op<string mnemonic, list<Trait> traits = []>
    : Op<Gather_Dialect, mnemonic, traits>;

#endif // GATHER_DIALECT_GATHER_IR_GATHERBASE_TD
